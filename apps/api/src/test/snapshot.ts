import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'

/**
 * Every table's row count and a checksum of its rows (the log excepted, which records refusals too): what a
 * refused call must leave exactly as it was.
 */
export async function snapshot(db: Db): Promise<string> {
  const tables = (await db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' and tablename not like '\\_\\_%' order by 1`,
  )) as unknown as { rows: Array<{ tablename: string }> }
  const names = tables.rows.map((r) => r.tablename).filter((n) => n !== 'logs')
  const parts = names.map(
    (n) => `(select count(*) || ':' || coalesce(md5(string_agg(x::text, ',' order by x::text)), '') from ${n} x)`,
  )
  const res = (await db.execute(sql.raw(`select concat_ws('|', ${parts.join(', ')}) as s`))) as unknown as {
    rows: Array<{ s: string }>
  }
  return res.rows[0]?.s ?? ''
}
