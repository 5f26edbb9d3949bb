import { AppError, type Dependent, MAX_EXACT_TOTAL } from '@vb/shared'
import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '../db/client'
import { KEPT_BY_TRIGGERS } from '../db/schema'

/** Rows of a raw statement (the driver's result; drizzle types it loosely across db and transaction). */
async function rowsOf<R>(db: DbOrTx, statement: SQL): Promise<R[]> {
  return ((await db.execute(statement)) as unknown as { rows: R[] }).rows
}

/**
 * What a record owns comes from the database's foreign keys, never from a list kept by hand (docs/rules.md,
 * "Deleting a record"): for every foreign key that points at the record's table,
 *
 * - `ON DELETE CASCADE`: the child is a part of the record (a resident's documents, a company's worker
 *   links). It goes with it in the same transaction, and its rows are kept in the deletion's log entry.
 * - `ON DELETE SET NULL`: a loose reference that says who made a row (a task's creator, a file's
 *   uploader). The child survives without it.
 * - anything else (`RESTRICT`, `NO ACTION`, the default): the child depends on the record. While one such
 *   row exists the deletion is refused with 409 and a message that names what the record still holds.
 *
 * A table added later, by any migration, is covered the day it exists: a plain `.references()` blocks.
 */

export interface ForeignKeyIn {
  /** The child table and its column that points at the parent. */
  tabla: string
  columna: string
  onDelete: 'cascade' | 'set null' | 'block'
  /** The child's stored (non-generated) columns, for the log. */
  columnas: string[]
}

const actions: Record<string, ForeignKeyIn['onDelete']> = { c: 'cascade', n: 'set null' }

/** Every single-column foreign key in the public schema that points at `table`, read from the catalog. */
export async function foreignKeysTo(db: DbOrTx, table: string): Promise<ForeignKeyIn[]> {
  const rows = await rowsOf<{ tabla: string; columna: string; accion: string; columnas: string[] }>(
    db,
    sql`
    select c.relname as tabla, a.attname as columna, k.confdeltype as accion,
           (select array_agg(x.attname::text order by x.attnum) from pg_attribute x
             where x.attrelid = c.oid and x.attnum > 0 and not x.attisdropped and x.attgenerated = '') as columnas
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
     where k.contype = 'f' and n.nspname = 'public' and k.confrelid = ${`public.${table}`}::regclass
     order by c.relname, a.attname`,
  )
  return rows.map((r) => ({
    tabla: r.tabla,
    columna: r.columna,
    onDelete: actions[r.accion] ?? 'block',
    columnas: r.columnas ?? [],
  }))
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())

/** How a part's rows are kept in the log: under another key, as one column's values, or not at all. */
export type PartInLog = false | { as?: string; keep?: string | string[] }

export interface ReleaseOptions {
  /** Per child table: how its rows go into the log (default: every stored column, under the camelCase table name). */
  parts?: Record<string, PartInLog>
  /** The refusal when dependents remain (default: deletionBlockedMessage of the resource). */
  blocked: (dependents: Dependent[]) => string
}

/**
 * Inside the deletion's transaction, with the parent's row already locked (so no child can be added
 * meanwhile): refuses with 409 while dependents remain, and returns the rows of the parts that will go
 * with it, for the log. Each count stops past MAX_EXACT_TOTAL rows.
 */
export async function releaseOrRefuse(
  tx: Tx,
  table: string,
  id: number,
  options: ReleaseOptions,
): Promise<Record<string, unknown[]>> {
  const keys = await foreignKeysTo(tx, table)
  const dependents: Dependent[] = []
  for (const fk of keys.filter((k) => k.onDelete === 'block' && k.tabla !== table)) {
    const result = await rowsOf<{ n: string }>(
      tx,
      sql`select count(*) as n from (select 1 from ${sql.identifier(fk.tabla)} where ${sql.identifier(fk.columna)} = ${id} limit ${MAX_EXACT_TOTAL + 1}) d`,
    )
    const n = Number(result[0]?.n ?? 0)
    if (n > 0) {
      const same = dependents.find((d) => d.tabla === fk.tabla)
      if (same) same.n += n
      else dependents.push({ tabla: fk.tabla, n })
    }
  }
  if (dependents.length) throw new AppError('CONFLICT', options.blocked(dependents))

  const parts: Record<string, unknown[]> = {}
  // A copy triggers keep (schema.ts) goes with the record too, but repeats what its sources' rows say.
  for (const fk of keys.filter((k) => k.onDelete === 'cascade' && !KEPT_BY_TRIGGERS.has(k.tabla))) {
    const how = options.parts?.[fk.tabla] ?? {}
    if (how === false) continue
    const keep = how.keep === undefined ? fk.columnas : Array.isArray(how.keep) ? how.keep : [how.keep]
    const result = await rowsOf<Record<string, unknown>>(
      tx,
      sql`select ${sql.join(
        keep.map((c) => sql.identifier(c)),
        sql`, `,
      )} from ${sql.identifier(fk.tabla)} where ${sql.identifier(fk.columna)} = ${id} order by 1`,
    )
    const rows =
      typeof how.keep === 'string'
        ? result.map((r) => r[how.keep as string])
        : result.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [camel(k), v])))
    const key = how.as ?? camel(fk.tabla)
    parts[key] = [...(parts[key] ?? []), ...rows]
  }
  return parts
}
