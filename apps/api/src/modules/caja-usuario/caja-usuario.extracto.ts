import type { Readable } from 'node:stream'
import {
  AppError,
  addDays,
  cajaMessages,
  diasDelRango,
  EXTRACTO_MAX_DIAS,
  EXTRACTO_MAX_MOVIMIENTOS,
  type ExtractoQuery,
  formatDate,
  formatDateTime,
  formatMoney,
  lastFullMonth,
  madridDay,
  madridStartOfDay,
} from '@vb/shared'
import { eq, sql } from 'drizzle-orm'
import PDFDocument from 'pdfkit'
import { empresas } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { pdfFonts } from '../../lib/fonts'
import { notFound } from '../../lib/records'
import { usuarioReachable } from '../../lib/scope'
import { titularOf, type UsuarioTitular } from '../usuarios/usuarios.service'

/**
 * GET /caja-usuario/extracto (issue 9 item 5): a resident's cash statement for a range of Madrid days, as a
 * PDF in Spanish. Every figure is computed by PostgreSQL as numeric and printed from its decimal string
 * with the shared es-ES formatter (DECISIONS A6, D10): opening balance, each movement with its running
 * balance, totals of income and outgoings, closing balance.
 *
 * Consistent: the totals and the rows are read in one REPEATABLE READ snapshot, so a movement written
 * meanwhile is in both or in neither. Bounded: at most EXTRACTO_MAX_DIAS days and EXTRACTO_MAX_MOVIMIENTOS
 * movements (400 beyond, with a message that says how to narrow it). Streamed: the PDF goes out page by
 * page as it is made, in slices of rows between which the server answers other requests.
 */

export interface ExtractoData {
  empresa: string | null
  titular: UsuarioTitular
  desde: string
  hasta: string
  saldoInicial: string
  saldoFinal: string
  ingresos: string
  gastos: string
  movimientos: Array<{ fecha: Date; concepto: string; cantidad: string; saldo: string }>
  generado: Date
}

/** Rows laid out (or measured) between two turns of the event loop: a few milliseconds of work. */
const ROWS_PER_SLICE = 50
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

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

const dayLabel = (day: string) => formatDate(madridStartOfDay(day))

/**
 * The PDF of a statement (A4, DejaVu Sans embedded), as a stream that starts at once. The rows are first
 * measured, so the number of pages is known before the first page is finished (its footer says "Página 1
 * de N"), then laid out; every page leaves for the stream when the next one begins, and every slice of
 * rows gives the event loop a turn.
 */
export function extractoStream(data: ExtractoData): Readable {
  const { regular, bold } = pdfFonts()
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    info: {
      Title: `Extracto de caja de ${data.titular.nombre} ${data.titular.apellidos}`,
      Author: data.empresa ?? 'Back-office de viviendas',
      CreationDate: data.generado,
    },
  })
  doc.registerFont('normal', regular)
  doc.registerFont('negrita', bold)
  layOut(doc, data).catch((err) => doc.destroy(err))
  return doc
}

async function layOut(doc: PDFKit.PDFDocument, data: ExtractoData): Promise<void> {
  const left = doc.page.margins.left
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right
  const cols = { fecha: 70, cantidad: 90, saldo: 90 }
  const conceptoWidth = width - cols.fecha - cols.cantidad - cols.saldo - 18
  const x = {
    fecha: left,
    concepto: left + cols.fecha + 6,
    cantidad: left + cols.fecha + 6 + conceptoWidth + 6,
    saldo: left + width - cols.saldo,
  }
  const bottom = () => doc.page.height - doc.page.margins.bottom - 20
  const top = doc.page.margins.top
  /** Below the column titles (they take 17 points). */
  const HEADER = 17
  const TOTALS = 80

  doc.font('negrita').fontSize(16).text('Extracto de caja')
  doc.moveDown(0.5)
  const line = (label: string, value: string) => {
    doc.font('negrita').fontSize(10).text(`${label}: `, { continued: true }).font('normal').text(value)
  }
  line('Empresa', data.empresa ?? 'Sin empresa')
  line('Vivienda', data.titular.vivienda?.nombre ?? 'Sin vivienda')
  line('Usuario', `${data.titular.nombre} ${data.titular.apellidos}`)
  line('NIF', data.titular.nif)
  line('Periodo', `del ${dayLabel(data.desde)} al ${dayLabel(data.hasta)}`)
  doc.moveDown(0.5)
  line('Saldo inicial', formatMoney(data.saldoInicial))
  doc.moveDown(0.8)

  // Measure every row (the same font and width as below) and count the pages the same way they are laid out.
  doc.font('normal').fontSize(9)
  const heights: number[] = []
  let y = doc.y + HEADER
  let pages = 1
  if (!data.movimientos.length) y += doc.heightOfString('No hay movimientos en el periodo.')
  for (let i = 0; i < data.movimientos.length; i++) {
    if (i && i % ROWS_PER_SLICE === 0) await nextTurn()
    const height = Math.max(
      12,
      doc.heightOfString((data.movimientos[i] as ExtractoData['movimientos'][number]).concepto, { width: conceptoWidth }),
    )
    heights.push(height)
    if (y + height > bottom()) {
      pages++
      y = top + HEADER
    }
    y += height + 3
  }
  if (y + TOTALS > bottom()) pages++

  let page = 1
  const footer = () => {
    // The footer sits in the bottom margin: with the margin in place, pdfkit would start a new page for it.
    const bottomMargin = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    const at = doc.page.height - bottomMargin - 8
    doc.font('normal').fontSize(8)
    doc.text(`Generado el ${formatDateTime(data.generado)}`, left, at, { width: width / 2, lineBreak: false })
    doc.text(`Página ${page} de ${pages}`, left + width / 2, at, { width: width / 2, align: 'right', lineBreak: false })
    doc.page.margins.bottom = bottomMargin
  }
  const newPage = () => {
    footer()
    doc.addPage()
    page++
  }
  const header = () => {
    const hy = doc.y
    doc.font('negrita').fontSize(9)
    doc.text('Fecha', x.fecha, hy, { width: cols.fecha, lineBreak: false })
    doc.text('Concepto', x.concepto, hy, { width: conceptoWidth, lineBreak: false })
    doc.text('Cantidad', x.cantidad, hy, { width: cols.cantidad, align: 'right', lineBreak: false })
    doc.text('Saldo', x.saldo, hy, { width: cols.saldo, align: 'right', lineBreak: false })
    doc
      .moveTo(left, hy + 13)
      .lineTo(left + width, hy + 13)
      .lineWidth(0.5)
      .stroke()
    doc.x = left
    doc.y = hy + HEADER
  }
  header()
  doc.font('normal').fontSize(9)
  if (!data.movimientos.length) doc.text('No hay movimientos en el periodo.', left, doc.y)
  for (let i = 0; i < data.movimientos.length; i++) {
    if (i && i % ROWS_PER_SLICE === 0) {
      await nextTurn()
      // The client went away: nobody reads the rest.
      if (doc.destroyed) return
    }
    const m = data.movimientos[i] as ExtractoData['movimientos'][number]
    const height = heights[i] as number
    if (doc.y + height > bottom()) {
      newPage()
      header()
      doc.font('normal').fontSize(9)
    }
    const ry = doc.y
    doc.text(formatDate(m.fecha), x.fecha, ry, { width: cols.fecha, lineBreak: false })
    doc.text(formatMoney(m.cantidad), x.cantidad, ry, { width: cols.cantidad, align: 'right', lineBreak: false })
    doc.text(formatMoney(m.saldo), x.saldo, ry, { width: cols.saldo, align: 'right', lineBreak: false })
    doc.text(m.concepto, x.concepto, ry, { width: conceptoWidth })
    doc.x = left
    doc.y = ry + height + 3
  }

  if (doc.y + TOTALS > bottom()) newPage()
  doc
    .moveTo(left, doc.y + 2)
    .lineTo(left + width, doc.y + 2)
    .lineWidth(0.5)
    .stroke()
  doc.x = left
  doc.y += 8
  line('Total ingresos', formatMoney(data.ingresos))
  line('Total gastos', formatMoney(data.gastos))
  line('Saldo final', formatMoney(data.saldoFinal))
  footer()
  doc.end()
}

/** The whole PDF of a statement in memory (the warm-up, tests). */
export async function extractoPdf(data: ExtractoData): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of extractoStream(data)) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** The statement of a resident as a PDF stream and its file name (the data is read before anything is sent). */
export async function extracto(deps: AppDeps, actor: Actor, query: ExtractoQuery): Promise<{ pdf: Readable; nombre: string }> {
  const data = await extractoData(deps, actor, query)
  return { pdf: extractoStream(data), nombre: `extracto-caja-${data.titular.nif}-${data.desde}-${data.hasta}.pdf` }
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
