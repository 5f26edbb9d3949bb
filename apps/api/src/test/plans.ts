import type { Db } from '../db/client'

/** One statement as the driver got it: its text and its parameters. */
export interface Sent {
  text: string
  values: unknown[]
}

/** A node of PostgreSQL's plan (EXPLAIN's JSON format): what the tests read of it. */
export interface PlanNode {
  'Node Type': string
  'Index Name'?: string
  /** The table a scan reads. */
  'Relation Name'?: string
  'Actual Rows'?: number
  Plans?: PlanNode[]
}

type Query = (config: unknown, values?: unknown) => Promise<{ rows: Array<Record<string, unknown>> }>
const poolOf = (db: Db) => (db as unknown as { $client: { query: Query } }).$client

/**
 * The statements `run` sends through the pool, in order, with what it returned. Drizzle sends every statement outside
 * a transaction through the pool's `query`, which is wrapped while `run` runs (a transaction's statements go through
 * a checked-out client and are not seen). The benchmark's harness records the same way, and transactions too
 * (`captureSql`, apps/api/bench/harness.ts).
 */
export async function statementsSent<T>(db: Db, run: () => Promise<T>): Promise<{ result: T; sent: Sent[] }> {
  const pool = poolOf(db)
  const original = pool.query
  const sent: Sent[] = []
  pool.query = function (this: unknown, config: unknown, values?: unknown) {
    const c = typeof config === 'string' ? { text: config } : (config as { text: string; values?: unknown[] })
    sent.push({ text: c.text, values: (values as unknown[]) ?? c.values ?? [] })
    return original.call(this, config, values)
  } as Query
  try {
    return { result: await run(), sent }
  } finally {
    pool.query = original
  }
}

/** Every node of the plan PostgreSQL makes for `statement` (run, with `analyze`), the root first, depth first. */
export async function planNodes(db: Db, statement: Sent, { analyze = false } = {}): Promise<PlanNode[]> {
  const explain = `explain (${analyze ? 'analyze, ' : ''}format json) `
  const { rows } = await poolOf(db).query({ text: explain + statement.text, values: statement.values })
  const [explained] = rows[0]!['QUERY PLAN'] as Array<{ Plan: PlanNode }>
  const walk = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(walk)]
  return walk(explained!.Plan)
}
