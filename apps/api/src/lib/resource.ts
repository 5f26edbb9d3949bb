import { AppError, type Dependent, deletionBlockedMessage, type ListPage, type Resource, uploadIdOf } from '@vb/shared'
import { type AnyColumn, eq, getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm'
import type { PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { z } from 'zod'
import type { DbOrTx, Tx } from '../db/client'
import { empresas } from '../db/schema'
import type { AppDeps } from '../deps'
import { type AttachmentColumn, attachUpload, deleteUploadRows, discardFiles, uploadOf } from '../modules/uploads/uploads.service'
import type { Actor } from './actor'
import { type CrudRoute, type CrudService, registerCrud, type WriteContext } from './crud-routes'
import { type PartInLog, releaseOrRefuse } from './ownership'
import { ordered, searchMatches, sortKey } from './paging'
import {
  checkVersion,
  listPage,
  lockRow,
  logChange,
  nextVersion,
  notFound,
  onUniqueViolation,
  orUnchanged,
  pageWindow,
  sameRecord,
  Unchanged,
  where,
} from './records'
import { resourceRules, scopeFor, scopeInEmpresa } from './scope'
import { selectPage } from './select-rows'
import { trigramCounts } from './trigram-counts'

/**
 * A resource from its declarations (docs/adding-a-resource.md). One `defineResource` gives the five calls of
 * the uniform CRUD contract (list, get, create, update, remove) and their routes, with the habits every write
 * keeps built in:
 *
 * - the worker's scope (lib/scope.ts) inside every statement: another company's record is simply not found;
 * - lists searched on the table's one search column, sorted case- and accent-insensitively, paged, with a
 *   bounded total (DECISIONS D13);
 * - writes in one transaction: the record's own row locked first (SELECT … FOR UPDATE), ids in the body
 *   checked against what the worker reaches, only the fields sent written, the version checked where the
 *   resource has one (409), unique violations answered with the resource's 409, and the log entry with the
 *   values before and after and the home the change concerns (DECISIONS L1-L3);
 * - deletions refused while other rows depend on the record, and its parts (ON DELETE CASCADE children) kept
 *   in the log entry (lib/ownership.ts).
 *
 * A resource overrides only what is really its own (`override`), e.g. the residents list with its PIR badge.
 */

/** The list query fields every resource takes (shared listQuerySchema). */
export interface BaseListQuery {
  q?: string
  sort?: string
  order?: 'asc' | 'desc'
  page: number
  pageSize: number
}

type TableWithId = PgTable & { id: PgColumn; updatedAt: PgColumn }

/** One sort of the list: a column (text is compared case- and accent-insensitively) or several. */
export type SortBy = AnyColumn | SQL | ReadonlyArray<AnyColumn | SQL>

/** An id in the body that names another resource's record (a contact's `empresaId`). */
export interface Reference {
  /** The resource named; its scope rule (lib/scope.ts) says which ids this worker may use. */
  resource: Resource
  /** 400 on the field when the id names nothing the worker reaches (or nothing at all). */
  invalid: string
  /**
   * Where SPEC has its own refusal for a record that exists but is another company's (a resident's home),
   * a 403 with that message instead of the 400, on create and on update.
   */
  forbidden?: { create: string; update: string }
}

/** What a change says in the activity log (DECISIONS L1). */
export interface LogDeclaration<E> {
  /** The noun of the action: 'contacto' gives 'Crear contacto', 'Modificar contacto', 'Eliminar contacto'. */
  noun: string
  /** The noun that starts the description, 'Contacto' ('Contacto creado: …'). */
  title: string
  /** The title is feminine: 'Vivienda creada'. */
  feminine?: boolean
  /** The record in a few words ('Suministros Norte, S.L.'). */
  label: (e: E) => string
  /** Said in brackets after the label on create and delete (the company of a home). */
  context?: (e: E) => string | undefined
  /** Said after the label on update when the change moved the record (' (trasladada de A a B)'). */
  moved?: (before: E, after: E) => string
  /** The screen (SPEC §7 logs: url); default `/<resource>`. */
  url?: string
  /** The home the change concerns (DECISIONS L1: never a fixed one). */
  vivienda?: (e: E) => { id: number; nombre: string } | null | undefined
  usuarioId?: (e: E) => number | null | undefined
  /**
   * What the entry keeps of the record before and after (default: the record as the API shows it), e.g.
   * without links that expire.
   */
  values?: (e: E) => unknown
  /** Replaces the description of one kind of change (parts: the rows that went with a deleted record). */
  describe?: {
    create?: (e: E) => string
    update?: (before: E, after: E) => string
    delete?: (e: E, parts: Record<string, unknown[]>) => string
  }
}

/** What the hooks of a write receive. */
export interface WriteHookContext<Row> {
  deps: AppDeps
  actor: Actor
  tx: Tx
  /** The locked row (update and remove). */
  row?: Row
}

/** What `insert` and `patch` may use besides the body: who writes, the clock, and (patch) the locked row. */
export interface ColumnsContext<Row> {
  deps: AppDeps
  actor: Actor
  row?: Row
}

/**
 * A file the record carries (DECISIONS S5, D6): the body field holding an upload's reference
 * ('/api/uploads/<id>'; null removes it) and the uploads column that points at the record. The file is taken
 * in the record's transaction (only an unattached upload of the same worker), replaced or removed on update,
 * and goes with the record; files left without a row are removed from disk after the commit.
 */
export interface FileDeclaration {
  field: string
  link: AttachmentColumn
}

/** The zod schemas of a resource (packages/shared): validation, serialisation and the OpenAPI document. */
export interface ResourceSchemas {
  entity: z.ZodType
  listQuery: z.ZodType<BaseListQuery, unknown>
  create: z.ZodType<Record<string, unknown>, unknown>
  update: z.ZodType<Record<string, unknown>, unknown>
  /** A list row's shape when it carries more than the entity (a badge). */
  listItem?: z.ZodType
}

type ListItem<S> = S extends { listItem: infer Z } ? (Z extends z.ZodType ? z.output<Z> : never) : Out<S, 'entity'>

type Out<S, K extends keyof ResourceSchemas> = S extends { [P in K]: infer Z }
  ? Z extends z.ZodType
    ? z.output<Z>
    : never
  : never

/** A select statement (with its joins) whose rows are R; the helper adds WHERE, ORDER BY and the page. */
export type Reader<R> = (db: DbOrTx) => Promise<R[]> & { $dynamic(): unknown }

export interface ResourceDefinition<T extends TableWithId, S extends ResourceSchemas, R = T['$inferSelect']> {
  /** The permission name, the API path (`/api/<name>`) and the web client's key (lib/resource.ts on the web). */
  name: Resource
  table: T
  /** Validation, serialisation and the OpenAPI document of each route. */
  schemas: S
  /** The statement a record is read with, with what it shows of other tables (one join each). Default: the table. */
  read?: Reader<R>
  /**
   * The statement a list page is read with, when a page shows less of other tables than a record does (its rows
   * are presented as `read`'s are). Default: `read`.
   */
  readList?: Reader<R>
  /**
   * A row of `read` as the API shows it (the presenter). Default: the row parsed by the entity schema, which
   * keeps the entity's fields and drops the rest (the search column, timestamps the entity does not show).
   */
  toEntity?: (row: R, context: { deps: AppDeps; actor: Actor }) => Out<S, 'entity'>
  /** 404's message. */
  notFound: string
  /** The table's stored search column (schema.ts `searchText`): `q` matches it. */
  search?: AnyColumn
  /** `sort` values and their keys; the first entry is the default, and its keys and the id break ties. */
  sort: Record<string, SortBy>
  /** The order when the query names none (default ascending). */
  defaultOrder?: 'asc' | 'desc'
  /** Filters of the list query besides q/sort/order/page: a condition on the table's own columns. */
  filters?: {
    [K in Exclude<keyof Out<S, 'listQuery'>, keyof BaseListQuery>]?: (
      value: NonNullable<Out<S, 'listQuery'>[K]>,
      actor: Actor,
    ) => SQL | undefined
  }
  /** The columns of a new row, from the validated body only (a field the schema dropped is never stored). */
  insert: (input: Out<S, 'create'>, context: ColumnsContext<T['$inferSelect']>) => T['$inferInsert']
  /** The columns a PATCH writes (default: `insert` of the body); fields not sent are left as they are. */
  patch?: (
    input: Out<S, 'update'>,
    context: ColumnsContext<T['$inferSelect']> & { row: T['$inferSelect'] },
  ) => Partial<T['$inferInsert']>
  /** The record's file, if it may carry one. */
  file?: FileDeclaration
  /** Ids in the body that name records of other resources, checked against the worker's scope. */
  references?: { [K in keyof Out<S, 'create'>]?: Reference }
  /** A unique index that settles a race (one 201, then 409s): its name, message and field. */
  unique?: Record<string, { message: string; field?: string }>
  /** The message of a stale edit (If-Match, or `updatedAt` in the body, older than the row): 409. */
  versioned?: string
  log: LogDeclaration<Out<S, 'entity'>>
  /** Deletions: how the record is named in a refusal, where dependents could go, and how parts are logged. */
  remove?: {
    /** 'la empresa'; default: the log title with an article. */
    record?: string
    moveTo?: string
    /** A refusal of its own (SPEC's, where it has one); undefined falls back to the general one. */
    blocked?: (dependents: Dependent[]) => string | undefined
    parts?: Record<string, PartInLog>
  }
  /** Checks of the resource's own (after the row is locked, before writing): throw an AppError to refuse. */
  check?: {
    create?: (input: Out<S, 'create'>, context: WriteHookContext<T['$inferSelect']>) => Promise<void> | void
    update?: (
      input: Out<S, 'update'>,
      context: WriteHookContext<T['$inferSelect']> & { row: T['$inferSelect'] },
    ) => Promise<void> | void
    remove?: (context: WriteHookContext<T['$inferSelect']> & { row: T['$inferSelect'] }) => Promise<unknown> | unknown
  }
  /**
   * Work of the resource's own in the write's transaction, after its row is written (rows of a link table, a
   * notification; a deactivated worker's sessions ended): on create and update before the record is read back
   * for the answer and the log, on remove before the log entry. Throw an AppError to refuse.
   */
  after?: {
    create?: (input: Out<S, 'create'>, context: WriteHookContext<T['$inferSelect']> & { id: number }) => Promise<void> | void
    update?: (
      input: Out<S, 'update'>,
      context: WriteHookContext<T['$inferSelect']> & { row: T['$inferSelect']; id: number },
    ) => Promise<void> | void
    remove?: (
      before: Out<S, 'entity'>,
      context: WriteHookContext<T['$inferSelect']> & { row: T['$inferSelect'] },
    ) => Promise<void> | void
  }
  /** Work after the commit, with what `check.remove` returned (files to delete from disk). */
  afterRemove?: (deps: AppDeps, prepared: unknown) => Promise<void>
  /**
   * Calls that are really the resource's own. As a function it receives the uniform calls, so an override can
   * wrap one (a worker editing its own settings goes its own way; an admin's edit is the uniform update).
   */
  override?:
    | Partial<CrudService<Out<S, 'entity'>, Out<S, 'listQuery'>, Out<S, 'create'>, Out<S, 'update'>, ListItem<S>>>
    | ((
        uniform: CrudService<Out<S, 'entity'>, Out<S, 'listQuery'>, Out<S, 'create'>, Out<S, 'update'>, ListItem<S>>,
      ) => Partial<CrudService<Out<S, 'entity'>, Out<S, 'listQuery'>, Out<S, 'create'>, Out<S, 'update'>, ListItem<S>>>)
  /**
   * Uniform routes the resource registers itself in `routes(extra)` (a create that answers more than the
   * entity, an update a worker may make to its own record): the uniform one is left out, the service call
   * stays.
   */
  ownRoutes?: ReadonlyArray<CrudRoute>
  /** OpenAPI descriptions per route. */
  docs?: Partial<Record<'list' | 'get' | 'create' | 'update' | 'remove', string>>
}

/**
 * The read of a company-owned resource: the table's columns and its company's id and name as `empresa` (the
 * company column of a list and the picker of its form).
 */
export function withEmpresa<T extends PgTable & { empresaId: PgColumn }>(table: T) {
  return (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(table), empresa: { id: empresas.id, nombre: empresas.nombre } })
      .from(table as PgTable)
      .innerJoin(empresas, eq(empresas.id, table.empresaId))
}

/** A text column not already stored normalised is compared case- and accent-insensitively (DECISIONS A4). */
function orderKey(key: AnyColumn | SQL): AnyColumn | SQL {
  const column = key as unknown as { dataType?: string; generated?: unknown }
  if (column.dataType === 'string' && !column.generated) return sortKey(key)
  return key
}

const asList = (by: SortBy): Array<AnyColumn | SQL> => (Array.isArray(by) ? [...by] : [by as AnyColumn | SQL])

/** 'creado' / 'creada' … */
const participle = (verb: 'cread' | 'modificad' | 'eliminad', feminine?: boolean) => `${verb}${feminine ? 'a' : 'o'}`

/** A list's declarations (what `defineResource` lists with, and read-only resources such as the log). */
export interface ListDefinition<T extends PgTable & { id: PgColumn }, Q extends BaseListQuery, R, I> {
  /** The permission name (the list needs the role's `list`); its scope rule (lib/scope.ts) is in every statement. */
  name: Resource
  table: T
  /** The statement a row is read with (default: the table). */
  read?: Reader<R>
  /** A row as the list shows it. */
  toItem: (row: R, context: { deps: AppDeps; actor: Actor }) => I
  /** The table's stored search column (schema.ts `searchText`): `q` matches it. */
  search?: AnyColumn
  /** `sort` values and their keys; the first entry is the default, and its keys and the id break ties. */
  sort: Record<string, SortBy>
  defaultOrder?: 'asc' | 'desc'
  /** Filters of the query besides q/sort/order/page: a condition on the table's own columns. */
  filters?: {
    [K in Exclude<keyof Q, keyof BaseListQuery>]?: (value: NonNullable<Q[K]>, actor: Actor) => SQL | undefined
  }
}

export interface DefinedList<Q extends BaseListQuery, I> {
  /** One page, sorted, with its bounded total (DECISIONS D13). */
  list(deps: AppDeps, actor: Actor, query: Q): Promise<ListPage<I>>
  /**
   * The WHERE of the list for this worker and query (role check, scope, filters, search) and its ORDER BY
   * keys: what an export of every matching row (the log's CSV) reads, in the list's order.
   */
  statement(actor: Actor, query: Omit<Q, 'page' | 'pageSize'>, db?: DbOrTx): { where: SQL | undefined; orderBy: SQL[] }
}

/**
 * The list of a resource from its declarations: the worker's scope in the statement, filters, `q` on the
 * table's one search column, a case- and accent-insensitive sort with the id as the last key, the page
 * and a bounded total (which may come from the short count cache).
 */
export function defineList<T extends PgTable & { id: PgColumn }, Q extends BaseListQuery, R, I>(
  def: ListDefinition<T, Q, R, I>,
): DefinedList<Q, I> {
  const { name, table } = def
  const read = (db: DbOrTx) => ((def.read ? def.read(db) : db.select().from(table as PgTable)) as unknown as PgSelect).$dynamic()
  const defaultSort = Object.keys(def.sort)[0] as string

  const statement = (actor: Actor, query: Omit<Q, 'page' | 'pageSize'>, db?: DbOrTx) => {
    const filters = Object.entries(def.filters ?? {}) as Array<[string, (value: unknown, actor: Actor) => SQL | undefined]>
    // The top bar's company is read with the scope where the resource's rule has `visibleIn` (lib/scope.ts); such a
    // resource declares no `empresaId` filter of its own.
    const { empresaId } = query as { empresaId?: number }
    const inEmpresa = empresaId !== undefined && resourceRules[name].visibleIn !== undefined
    const condition = where(
      inEmpresa ? scopeInEmpresa(actor, name, 'list', empresaId) : scopeFor(actor, name, 'list'),
      ...filters.map(([field, filter]) => {
        const value = (query as Record<string, unknown>)[field]
        return value === undefined || value === null ? undefined : filter(value, actor)
      }),
      query.q && def.search ? searchMatches(def.search, query.q, db && trigramCounts(db, def.search)) : undefined,
    )
    const keys = [
      ...asList(def.sort[query.sort ?? defaultSort] ?? def.sort[defaultSort] ?? []),
      ...asList(def.sort[defaultSort] ?? []),
    ]
    const unique = keys.filter((k, i) => keys.indexOf(k) === i)
    const orderBy = [...unique.map(orderKey), table.id].map((k) => ordered(k, query.order ?? def.defaultOrder))
    return { where: condition, orderBy }
  }

  return {
    statement,
    async list(deps, actor, query) {
      const { where: condition, orderBy } = statement(actor, query, deps.db)
      const { limit, offset } = pageWindow(query)
      // The statement differs between calls only in its condition, page and (below) sort: built once per sort.
      const rows = selectPage(
        deps.db,
        `kit:${name}:${String(query.sort)}:${String(query.order)}`,
        (c, l, o) =>
          read(deps.db)
            .where(c)
            .orderBy(...orderBy)
            .limit(l)
            .offset(o) as unknown as PromiseLike<unknown[]>,
        condition,
        limit,
        offset,
      )
      return listPage(
        deps.db,
        rows.then((r) => r.map((row) => def.toItem(row as R, { deps, actor }))),
        { from: table, where: condition },
      )
    },
  }
}

/** The Fastify instance a plugin receives, typed by the zod schemas of its routes. */
type ZodApp = Parameters<FastifyPluginAsyncZod>[0]

/** The resource's service and its routes. */
export interface DefinedResource<E, Q, C, U, L> {
  service: CrudService<E, Q, C, U, L>
  /** The uniform routes; `extra` registers the resource's own beside them. */
  routes(extra?: (app: ZodApp) => void | Promise<void>): FastifyPluginAsyncZod
}

export function defineResource<T extends TableWithId, S extends ResourceSchemas, R = T['$inferSelect']>(
  def: ResourceDefinition<T, S, R>,
): DefinedResource<Out<S, 'entity'>, Out<S, 'listQuery'>, Out<S, 'create'>, Out<S, 'update'>, ListItem<S>> {
  type E = Out<S, 'entity'>
  type Q = Out<S, 'listQuery'>
  type C = Out<S, 'create'>
  type U = Out<S, 'update'>
  type L = ListItem<S>
  const { name, table, log } = def
  const tableName = getTableName(table)
  const read = (db: DbOrTx) => ((def.read ? def.read(db) : db.select().from(table as PgTable)) as unknown as PgSelect).$dynamic()
  const present = (deps: AppDeps, actor: Actor) => (row: unknown) =>
    def.toEntity ? def.toEntity(row as R, { deps, actor }) : (def.schemas.entity.parse(row) as E)

  /** The record as the API shows it, read by id (no scope: the caller has already checked or locked it). */
  const readOne = async (deps: AppDeps, actor: Actor, db: DbOrTx, id: number, scope?: SQL): Promise<E> => {
    const [row] = await read(db).where(where(eq(table.id, id), scope))
    if (!row) throw notFound(def.notFound)
    return present(deps, actor)(row)
  }

  /** The ids of the body that name other records: each one must be a record the worker reaches. */
  const checkReferences = async (tx: Tx, actor: Actor, input: Record<string, unknown>, mode: 'create' | 'update') => {
    for (const [field, ref] of Object.entries(def.references ?? {}) as Array<[string, Reference]>) {
      const id = input[field]
      if (typeof id !== 'number') continue
      const rule = resourceRules[ref.resource]
      const parent = rule.table
      const [found] = await tx
        .select({
          id: parent.id,
          visible: ref.forbidden ? sql<boolean>`${rule.visible(actor) ?? sql`true`}` : sql<boolean>`true`,
        })
        .from(parent)
        .where(where(eq(parent.id, id), ref.forbidden ? undefined : rule.visible(actor)))
      if (!found) throw new AppError('VALIDATION_FAILED', undefined, { [field]: ref.invalid })
      if (ref.forbidden && !found.visible) throw new AppError('FORBIDDEN', ref.forbidden[mode])
    }
  }

  const unique = <R>(work: () => Promise<R>): Promise<R> =>
    Object.entries(def.unique ?? {}).reduce<() => Promise<R>>(
      (inner, [constraint, { message, field }]) =>
        () =>
          onUniqueViolation(inner, constraint, () => new AppError('CONFLICT', message, field ? { [field]: message } : undefined)),
      work,
    )()

  const url = log.url ?? `/${name}`
  const withContext = (e: E) => {
    const context = log.context?.(e)
    return context ? `${log.label(e)} (${context})` : log.label(e)
  }
  const concerns = (e: E) => ({ vivienda: log.vivienda?.(e) ?? null, usuarioId: log.usuarioId?.(e) ?? null })
  const kept = (e: E) => (log.values ? log.values(e) : e)
  const file = def.file

  /** Takes the body's file for the record (create), or replaces or removes it (update); returns files to discard. */
  const takeFile = async (tx: Tx, actor: Actor, id: number, input: Record<string, unknown>, existing: boolean) => {
    if (!file || input[file.field] === undefined) return []
    const reference = input[file.field] as string | null
    const current = existing ? await uploadOf(tx, { [file.link]: id } as never) : undefined
    if (current && reference && uploadIdOf(reference) === current.id) return []
    if (current) await deleteUploadRows(tx, [current.id])
    if (reference) await attachUpload(tx, actor, reference, { [file.link]: id } as never, file.field)
    return current ? [current.id] : []
  }

  const lister = defineList<T, Q, R, L>({
    name,
    table,
    read: def.readList ?? def.read,
    toItem: (row, context) => present(context.deps, context.actor)(row) as unknown as L,
    search: def.search,
    sort: def.sort,
    defaultOrder: def.defaultOrder,
    filters: def.filters as ListDefinition<T, Q, R, L>['filters'],
  })

  const uniform: CrudService<E, Q, C, U, L> = {
    list: (deps, actor, query) => lister.list(deps, actor, query),

    async get(deps, actor, id) {
      return readOne(deps, actor, deps.db, id, scopeFor(actor, name, 'list'))
    },

    async create(deps, actor, input) {
      scopeFor(actor, name, 'create')
      return unique(() =>
        deps.db.transaction(async (tx) => {
          await checkReferences(tx, actor, input, 'create')
          await def.check?.create?.(input, { deps, actor, tx })
          const [inserted] = await tx
            .insert(table as PgTable)
            .values(def.insert(input, { deps, actor }))
            .returning({ id: table.id })
          const id = (inserted as { id: number }).id
          await takeFile(tx, actor, id, input, false)
          await def.after?.create?.(input, { deps, actor, tx, id })
          const created = await readOne(deps, actor, tx, id)
          await logChange(tx, actor, {
            accion: `Crear ${log.noun}`,
            url,
            cambio: 'create',
            descripcion:
              log.describe?.create?.(created) ?? `${log.title} ${participle('cread', log.feminine)}: ${withContext(created)}`,
            ...concerns(created),
            despues: kept(created),
          })
          return created
        }),
      )
    },

    async update(deps, actor, id, input, context: WriteContext) {
      const scope = scopeFor(actor, name, 'update')
      const discarded: string[] = []
      const result = await orUnchanged(
        unique(() =>
          deps.db.transaction(async (tx) => {
            discarded.length = 0
            const row = await lockRow(tx, table, id, scope, def.notFound)
            if (def.versioned)
              checkVersion(row.updatedAt as Date, [context.ifMatch, input.updatedAt as string | undefined], def.versioned)
            const before = await readOne(deps, actor, tx, id)
            // Ids that did not change are not checked again: the record keeps what it had.
            const changedRefs = Object.fromEntries(
              Object.entries(input).filter(([k, v]) => k in (def.references ?? {}) && v !== (row as Record<string, unknown>)[k]),
            )
            await checkReferences(tx, actor, changedRefs, 'update')
            await def.check?.update?.(input, { deps, actor, tx, row })
            const columns = def.patch ? def.patch(input, { deps, actor, row }) : def.insert(input as never, { deps, actor, row })
            const changes = Object.fromEntries(
              Object.entries(columns as Record<string, unknown>).filter(([k, v]) => v !== undefined && k !== file?.field),
            )
            await tx
              .update(table as PgTable)
              .set({ ...changes, updatedAt: nextVersion(deps.clock, row.updatedAt as Date) })
              .where(eq(table.id, id))
            discarded.push(...(await takeFile(tx, actor, id, input, true)))
            await def.after?.update?.(input, { deps, actor, tx, row, id })
            const after = await readOne(deps, actor, tx, id)
            // Saved as it was (a form sent back untouched): nothing to log, and no new version for other editors.
            if (sameRecord(before, after)) throw new Unchanged(before)
            await logChange(tx, actor, {
              accion: `Modificar ${log.noun}`,
              url,
              cambio: 'update',
              descripcion:
                log.describe?.update?.(before, after) ??
                `${log.title} ${participle('modificad', log.feminine)}: ${log.label(after)}${log.moved?.(before, after) ?? ''}`,
              ...concerns(after),
              antes: kept(before),
              despues: kept(after),
            })
            return after
          }),
        ),
        discarded,
      )
      await discardFiles(deps, discarded)
      return result
    },

    async remove(deps, actor, id) {
      const scope = scopeFor(actor, name, 'delete')
      const prepared = await deps.db.transaction(async (tx) => {
        const row = await lockRow(tx, table, id, scope, def.notFound)
        const before = await readOne(deps, actor, tx, id)
        const prepared = await def.check?.remove?.({ deps, actor, tx, row })
        // The record's file row goes with it (the foreign key cascades); its bytes after the commit.
        const attached = file ? await uploadOf(tx, { [file.link]: id } as never) : undefined
        const record = def.remove?.record ?? `${log.feminine ? 'la' : 'el'} ${log.title.toLowerCase()}`
        const parts = await releaseOrRefuse(tx, tableName, id, {
          parts: def.remove?.parts,
          blocked: (d) => def.remove?.blocked?.(d) ?? deletionBlockedMessage(record, d, def.remove?.moveTo),
        })
        await tx.delete(table as PgTable).where(eq(table.id, id))
        await def.after?.remove?.(before, { deps, actor, tx, row })
        await logChange(tx, actor, {
          accion: `Eliminar ${log.noun}`,
          url,
          cambio: 'delete',
          descripcion:
            log.describe?.delete?.(before, parts) ??
            `${log.title} ${participle('eliminad', log.feminine)}: ${withContext(before)}`,
          ...concerns(before),
          antes: Object.keys(parts).length ? { ...(kept(before) as object), ...parts } : kept(before),
        })
        return { prepared, attached: attached?.id }
      })
      if (prepared.attached) await discardFiles(deps, [prepared.attached])
      await def.afterRemove?.(deps, prepared.prepared)
    },
  }
  const service: CrudService<E, Q, C, U, L> = {
    ...uniform,
    ...(typeof def.override === 'function' ? def.override(uniform) : def.override),
  }

  return {
    service,
    routes: (extra) => async (app) => {
      registerCrud(app, { resource: name, schemas: def.schemas, service, docs: def.docs, skip: def.ownRoutes })
      await extra?.(app)
    },
  }
}
