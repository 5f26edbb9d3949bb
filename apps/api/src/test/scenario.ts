import type { Rol } from '@vb/shared'
import { desc, eq, sql } from 'drizzle-orm'
import { afterAll } from 'vitest'
import type { empresas, trabajadores, usuarios, viviendas } from '../db/schema'
import { logs } from '../db/schema'
import type { Clock } from '../lib/clock'
import { buildTestApp, type TestApp, type TestAppOptions, type TestWorker } from './build-test-app'
import { makeEmpresa, makeUsuario, makeVivienda } from './factories'

type Empresa = Awaited<ReturnType<typeof makeEmpresa>>
type Vivienda = Awaited<ReturnType<typeof makeVivienda>>
type Usuario = Awaited<ReturnType<typeof makeUsuario>>

/** Which of the scenario's two companies a worker is linked to. */
export type ScenarioCompany = 'A' | 'B'

/** A worker to create: its role, the scenario companies it is linked to, and any other column. */
export interface ScenarioWorker {
  rol: Rol
  of?: ScenarioCompany[]
  values?: Partial<typeof trabajadores.$inferInsert>
}

/**
 * The cast most files need: a SUPERADMIN linked to no company (its role alone lets it see every company),
 * and an ADMIN and an EMPLEADO of company A.
 */
export const STANDARD_WORKERS = {
  superadmin: { rol: 'SUPERADMIN' },
  admin: { rol: 'ADMIN', of: ['A'] },
  empleado: { rol: 'EMPLEADO', of: ['A'] },
} as const satisfies Record<string, ScenarioWorker>

/** An ADMIN and an EMPLEADO of company A, and an ADMIN of company B: whom a record of A must stay hidden from. */
const WORKERS_WITH_ADMIN_B = {
  admin: { rol: 'ADMIN', of: ['A'] },
  empleado: { rol: 'EMPLEADO', of: ['A'] },
  adminB: { rol: 'ADMIN', of: ['B'] },
} as const satisfies Record<string, ScenarioWorker>

type Values<T extends { $inferInsert: unknown }> = Partial<T['$inferInsert']>

export interface ScenarioOptions<W extends Record<string, ScenarioWorker>> extends TestAppOptions {
  /** Column values of company A (default name `Empresa N`). */
  empresaA?: Values<typeof empresas>
  /** Company B, created right after A; `false` for a file that needs one company only. */
  empresaB?: Values<typeof empresas> | false
  /** A home of company A; none unless asked for (`{}` for the default name). */
  viviendaA?: Values<typeof viviendas>
  /** A home of company B; none unless asked for. */
  viviendaB?: Values<typeof viviendas>
  /** A resident living in viviendaA (which it then implies); none unless asked for. */
  usuarioA?: Values<typeof usuarios>
  /** The workers to create, in this order, keyed by the name the file uses (default STANDARD_WORKERS). */
  workers?: W
}

export interface Scenario {
  t: TestApp
  empresaA: Empresa
  /** The rows below exist only when the options asked for them; reading one that was not made throws. */
  empresaB: Empresa
  viviendaA: Vivienda
  viviendaB: Vivienda
  usuarioA: Usuario
  /** The newest log entry of a worker. */
  lastLog(worker: number | { id: number }): Promise<typeof logs.$inferSelect | undefined>
  /** How many log entries there are in all (to prove that a refused request wrote none). */
  logCount(): Promise<number>
}

/**
 * The app on a fresh database for a whole test file, closed by the `afterAll` it registers: called at the
 * top of the file, `const t = await testApp()`, it replaces a `let t` with its before/after hooks.
 */
export async function testApp(options: TestAppOptions = {}): Promise<TestApp> {
  const t = await buildTestApp(options)
  afterAll(() => t.close())
  return t
}

/** A row the options did not ask for is a mistake in the test file, said at once rather than as `undefined.id`. */
function asked<T>(name: string, row: T | undefined): T {
  if (row === undefined) throw new Error(`testScenario: ${name} was not asked for in the options`)
  return row
}

/**
 * Database, app, companies, homes, a resident and logged-in workers in one call, for a test file's
 * preamble: `const { t, empresaA, admin } = await testScenario({ … })` at the top of the file. It runs while
 * the file is collected, so what the preamble names is a plain constant in every test, and the app and
 * its database are closed by the `afterAll` it registers.
 *
 * Rows are made in a fixed order (A, B, A's home, B's home, the resident, then the workers in the order
 * given), the order the preambles used to make them in, so default names and ids stay what they were.
 * Homes and the resident exist only when asked for: a list test counts what it sees.
 */
export async function testScenario<W extends Record<string, ScenarioWorker> = typeof STANDARD_WORKERS>(
  options: ScenarioOptions<W> = {},
): Promise<Scenario & { [K in keyof W]: TestWorker }> {
  const { empresaA: a, empresaB: b, viviendaA, viviendaB, usuarioA, workers, ...appOptions } = options
  const t = await testApp(appOptions)
  const empresaA = await makeEmpresa(t.db, a)
  const empresaB = b === false ? undefined : await makeEmpresa(t.db, b)
  const homeA = viviendaA || usuarioA ? await makeVivienda(t.db, empresaA.id, viviendaA) : undefined
  if (viviendaB && !empresaB) throw new Error('testScenario: viviendaB needs company B')
  const homeB = viviendaB && empresaB ? await makeVivienda(t.db, empresaB.id, viviendaB) : undefined
  const resident = usuarioA && homeA ? await makeUsuario(t.db, homeA.id, usuarioA) : undefined
  const companyIds = { A: empresaA.id, B: empresaB?.id }
  const made = {} as Record<string, TestWorker>
  for (const [name, spec] of Object.entries(workers ?? STANDARD_WORKERS) as Array<[string, ScenarioWorker]>) {
    const ids = (spec.of ?? []).map((c) => companyIds[c])
    if (ids.some((id) => id === undefined)) throw new Error(`testScenario: ${name} needs company B`)
    made[name] = await t.worker(spec.rol, ids as number[], spec.values)
  }
  return {
    t,
    empresaA,
    get empresaB() {
      return asked('empresaB', empresaB)
    },
    get viviendaA() {
      return asked('viviendaA', homeA)
    },
    get viviendaB() {
      return asked('viviendaB', homeB)
    },
    get usuarioA() {
      return asked('usuarioA', resident)
    },
    lastLog: async (worker) => {
      const id = typeof worker === 'number' ? worker : worker.id
      return (await t.db.select().from(logs).where(eq(logs.trabajadorId, id)).orderBy(desc(logs.id)).limit(1))[0]
    },
    logCount: async () => Number((await t.db.select({ n: sql<number>`count(*)` }).from(logs))[0]?.n),
    ...(made as { [K in keyof W]: TestWorker }),
  }
}

/**
 * A resident's records (documents, cash ledger) under a fixed clock: company A with a named home, a home of
 * company B, an ADMIN and an EMPLEADO of A and an ADMIN of B. The residents are made by each test.
 */
export function recordsScenario({ clock, empresa, vivienda }: { clock: Clock; empresa: string; vivienda: string }) {
  return testScenario({
    clock,
    empresaA: { nombre: empresa },
    viviendaA: { nombre: vivienda },
    viviendaB: {},
    workers: WORKERS_WITH_ADMIN_B,
  })
}
