import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import {
  AppError,
  addDays,
  cajaMessages,
  diasDelRango,
  EXTRACTO_MAX_DIAS,
  EXTRACTO_MAX_MOVIMIENTOS,
  type ExtractoQuery,
  lastFullMonth,
  madridDay,
  madridStartOfDay,
} from '@vb/shared'
import { eq, sql } from 'drizzle-orm'
import { empresas } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { pdfFonts } from '../../lib/fonts'
import { notFound } from '../../lib/records'
import { usuarioReachable } from '../../lib/scope'
import { titularOf } from '../usuarios/usuarios.service'
import type { ExtractoData } from './caja-usuario.extracto-pdf'

export type { ExtractoData } from './caja-usuario.extracto-pdf'

/**
 * GET /caja-usuario/extracto: a resident's cash statement for a range of Madrid days, as a
 * PDF in Spanish. Every figure is computed by PostgreSQL as numeric and printed from its decimal string
 * with the shared es-ES formatter (DECISIONS A6, D10): opening balance, each movement with its running
 * balance, totals of income and outgoings, closing balance.
 *
 * Consistent: the totals and the rows are read in one REPEATABLE READ snapshot, so a movement written
 * meanwhile is in both or in neither. Bounded: at most EXTRACTO_MAX_DIAS days and EXTRACTO_MAX_MOVIMIENTOS
 * movements (400 beyond, with a message that says how to narrow it). Off the event loop: the PDF is laid
 * out in a worker thread and streamed to the client page by page as it comes.
 */

const require = createRequire(import.meta.url)

/** The statement's figures for one resident and range, each one summed by the database, in one snapshot. */
export async function extractoData(deps: AppDeps, actor: Actor, query: ExtractoQuery): Promise<ExtractoData> {
  const byDefault = lastFullMonth(deps.clock.now())
  // Default: the last full month; only `hasta`: from the first of its month; only `desde`: up to today.
  const desde = query.desde ?? (query.hasta ? `${query.hasta.slice(0, 8)}01` : byDefault.desde)
  const hasta = query.hasta ?? (query.desde ? madridDay(deps.clock.now()) : byDefault.hasta)
  if (diasDelRango(desde, hasta) > EXTRACTO_MAX_DIAS) {
    throw new AppError('VALIDATION_FAILED', cajaMessages.extractoRangoLargo, { desde: cajaMessages.extractoRangoLargo })
  }
  const from = madridStartOfDay(desde)
  const to = madridStartOfDay(addDays(hasta, 1))
  return deps.db.transaction(
    async (tx) => {
      const titular = await titularOf(tx, actor, 'caja-usuario', 'list', { id: query.usuarioId, nif: query.nif })
      const allowed = usuarioReachable(actor, titular.id) ?? sql`true`
      const inRange = sql`usuario_id = ${titular.id} and fecha >= ${from} and fecha < ${to}`
      const counted = (await tx.execute(
        sql`select count(*)::int as n from (select 1 from caja_usuario where ${inRange} limit ${EXTRACTO_MAX_MOVIMIENTOS + 1}) c`,
      )) as unknown as { rows: Array<{ n: number }> }
      if ((counted.rows[0]?.n ?? 0) > EXTRACTO_MAX_MOVIMIENTOS) {
        throw new AppError('VALIDATION_FAILED', cajaMessages.extractoDemasiados, { desde: cajaMessages.extractoDemasiados })
      }
      const summary = await tx.execute(sql`
        select (coalesce(sum(cantidad) filter (where fecha < ${from}), 0))::numeric(20, 2) as saldo_inicial,
               (coalesce(sum(cantidad) filter (where fecha < ${to}), 0))::numeric(20, 2) as saldo_final,
               (coalesce(sum(cantidad) filter (where fecha >= ${from} and fecha < ${to} and cantidad > 0), 0))::numeric(20, 2) as ingresos,
               (coalesce(sum(cantidad) filter (where fecha >= ${from} and fecha < ${to} and cantidad < 0), 0))::numeric(20, 2) as gastos,
               bool_and(${allowed}) is not false as permitido
          from caja_usuario where usuario_id = ${titular.id}`)
      const s = (summary as unknown as { rows: Array<Record<string, string | boolean>> }).rows[0] ?? {}
      if (s.permitido === false) throw notFound('No se ha encontrado el usuario.')
      const movimientos = await tx.execute(sql`
        with opening as (select coalesce(sum(cantidad), 0) as s from caja_usuario where usuario_id = ${titular.id} and fecha < ${from})
        select c.fecha, c.concepto, c.cantidad,
               (opening.s + sum(c.cantidad) over (order by c.fecha, c.id))::numeric(20, 2) as saldo
          from caja_usuario c, opening
         where c.usuario_id = ${titular.id} and c.fecha >= ${from} and c.fecha < ${to} and ${allowed}
         order by c.fecha, c.id`)
      const empresa = titular.vivienda
        ? await tx.select({ nombre: empresas.nombre }).from(empresas).where(eq(empresas.id, titular.vivienda.empresaId))
        : []
      return {
        empresa: empresa[0]?.nombre ?? null,
        titular,
        desde,
        hasta,
        saldoInicial: String(s.saldo_inicial ?? '0.00'),
        saldoFinal: String(s.saldo_final ?? '0.00'),
        ingresos: String(s.ingresos ?? '0.00'),
        gastos: String(s.gastos ?? '0.00'),
        movimientos: (
          movimientos as unknown as { rows: Array<{ fecha: Date | string; concepto: string; cantidad: string; saldo: string }> }
        ).rows.map((r) => ({ ...r, fecha: r.fecha instanceof Date ? r.fecha : new Date(r.fecha) })),
        generado: deps.clock.now(),
      }
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  )
}

/**
 * The worker thread that lays out the PDFs, started on first use and shared by every statement (their
 * jobs interleave). Built (dist/), it is dist/extracto-worker.js; from the sources (tsx, tests), its
 * TypeScript file loaded through tsx inside the worker.
 */
let renderer: Worker | undefined
const jobs = new Map<number, { out: Readable; started: (err?: Error) => void }>()
let lastJob = 0

function workerScript(): URL {
  const built = new URL('./extracto-worker.js', import.meta.url)
  if (existsSync(fileURLToPath(built))) return built
  const entry = new URL('./caja-usuario.extracto-worker.ts', import.meta.url).href
  // tsx's ESM API (its `tsx/esm/api` export), which a data: module cannot name by package.
  const tsx = pathToFileURL(path.join(path.dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href
  const code = `import { tsImport } from ${JSON.stringify(tsx)}; await tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)})`
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`)
}

function pdfWorker(): Worker {
  if (renderer) return renderer
  const worker = new Worker(workerScript(), { workerData: { fonts: pdfFonts() } })
  worker.on('message', (m: { id: number; chunk?: Uint8Array; end?: boolean; error?: string }) => {
    const job = jobs.get(m.id)
    if (!job) return
    if (m.chunk) {
      job.started()
      job.out.push(Buffer.from(m.chunk))
    } else {
      jobs.delete(m.id)
      if (m.end) {
        job.started()
        job.out.push(null)
      } else {
        const err = new Error(`statement PDF failed: ${m.error}`)
        job.started(err)
        job.out.destroy(err)
      }
    }
  })
  const lost = (err: Error) => {
    if (renderer === worker) renderer = undefined
    for (const job of jobs.values()) {
      job.started(err)
      job.out.destroy(err)
    }
    jobs.clear()
  }
  worker.on('error', lost)
  worker.on('exit', (code) => lost(new Error(`statement PDF worker exited (${code})`)))
  // It never keeps a process alive by itself (a CLI tool, a test file); after the listeners, which would ref it again.
  worker.unref()
  renderer = worker
  return worker
}

/**
 * A statement's PDF, laid out in the worker thread and streamed as it comes. Resolves once its first bytes
 * are there (so a failure to start is an error response, not a cut download); a missing font is said here,
 * before anything is sent.
 */
async function renderPdf(data: ExtractoData): Promise<Readable> {
  pdfFonts()
  const id = ++lastJob
  let started!: (err?: Error) => void
  const ready = new Promise<void>((resolve, reject) => {
    started = (err) => (err ? reject(err) : resolve())
  })
  const out = new Readable({
    read() {},
    destroy(err, callback) {
      // The client went away: the worker stops laying it out.
      if (jobs.delete(id)) renderer?.postMessage({ id, cancel: true })
      callback(err)
    },
  })
  jobs.set(id, { out, started })
  pdfWorker().postMessage({ id, data })
  await ready
  return out
}

/** The whole PDF of a statement in memory (the warm-up, tests). */
export async function extractoPdf(data: ExtractoData): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of await renderPdf(data)) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** The statement of a resident as a PDF stream and its file name (the data is read before anything is sent). */
export async function extracto(deps: AppDeps, actor: Actor, query: ExtractoQuery): Promise<{ pdf: Readable; nombre: string }> {
  const data = await extractoData(deps, actor, query)
  return { pdf: await renderPdf(data), nombre: `extracto-caja-${data.titular.nif}-${data.desde}-${data.hasta}.pdf` }
}

/**
 * Renders a small statement once, so the first one a person asks for does not also pay for reading the
 * fonts and warming the layout code (about a second on this machine). Called by the server after start-up.
 */
export async function warmUpExtracto(now: Date): Promise<void> {
  await extractoPdf({
    empresa: 'Empresa',
    titular: { id: 0, nombre: 'Nombre', apellidos: 'Apellidos', nif: '00000000T', vivienda: null },
    desde: '2026-01-01',
    hasta: '2026-01-31',
    saldoInicial: '0.00',
    saldoFinal: '1.00',
    ingresos: '1.00',
    gastos: '0.00',
    movimientos: Array.from({ length: 40 }, (_, i) => ({
      fecha: now,
      concepto: `Movimiento de prueba número ${i} con acentos: áéíóú ñ €`,
      cantidad: '1.00',
      saldo: '1.00',
    })),
    generado: now,
  })
}
