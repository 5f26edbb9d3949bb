import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  addDays,
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
import { notFound } from '../../lib/records'
import { usuarioReachable } from '../../lib/scope'
import { titularOf, type UsuarioTitular } from '../usuarios/usuarios.service'

/**
 * GET /caja-usuario/extracto (issue 9 item 5): a resident's cash statement for a range of Madrid days, as a
 * PDF in Spanish. Every figure is computed by PostgreSQL as numeric and printed from its decimal string
 * with the shared es-ES formatter (DECISIONS A6, D10): opening balance, each movement with its running
 * balance, totals of income and outgoings, closing balance.
 */

const require = createRequire(import.meta.url)
let fonts: { regular: Buffer; bold: Buffer } | undefined
/** DejaVu Sans (embedded, subset by pdfkit): Spanish accents, ñ, ¿¡, € and much more. */
function fontsFor(): { regular: Buffer; bold: Buffer } {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  }
  return fonts
}

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

/** The statement's figures for one resident and range, each one summed by the database. */
export async function extractoData(deps: AppDeps, actor: Actor, query: ExtractoQuery): Promise<ExtractoData> {
  const titular = await titularOf(deps.db, actor, 'caja-usuario', 'list', { id: query.usuarioId, nif: query.nif })
  const byDefault = lastFullMonth(deps.clock.now())
  // Default: the last full month; only `hasta`: from the first of its month; only `desde`: up to today.
  const desde = query.desde ?? (query.hasta ? `${query.hasta.slice(0, 8)}01` : byDefault.desde)
  const hasta = query.hasta ?? (query.desde ? madridDay(deps.clock.now()) : byDefault.hasta)
  const from = madridStartOfDay(desde)
  const to = madridStartOfDay(addDays(hasta, 1))
  const allowed = usuarioReachable(actor, titular.id) ?? sql`true`
  const [summary, movimientos, empresa] = await Promise.all([
    deps.db.execute(sql`
      select (coalesce(sum(cantidad) filter (where fecha < ${from}), 0))::numeric(20, 2) as saldo_inicial,
             (coalesce(sum(cantidad) filter (where fecha < ${to}), 0))::numeric(20, 2) as saldo_final,
             (coalesce(sum(cantidad) filter (where fecha >= ${from} and fecha < ${to} and cantidad > 0), 0))::numeric(20, 2) as ingresos,
             (coalesce(sum(cantidad) filter (where fecha >= ${from} and fecha < ${to} and cantidad < 0), 0))::numeric(20, 2) as gastos,
             bool_and(${allowed}) is not false as permitido
        from caja_usuario where usuario_id = ${titular.id}`),
    deps.db.execute(sql`
      with opening as (select coalesce(sum(cantidad), 0) as s from caja_usuario where usuario_id = ${titular.id} and fecha < ${from})
      select c.fecha, c.concepto, c.cantidad,
             (opening.s + sum(c.cantidad) over (order by c.fecha, c.id))::numeric(20, 2) as saldo
        from caja_usuario c, opening
       where c.usuario_id = ${titular.id} and c.fecha >= ${from} and c.fecha < ${to} and ${allowed}
       order by c.fecha, c.id`),
    titular.vivienda
      ? deps.db.select({ nombre: empresas.nombre }).from(empresas).where(eq(empresas.id, titular.vivienda.empresaId))
      : Promise.resolve([]),
  ])
  const s = (summary as unknown as { rows: Array<Record<string, string | boolean>> }).rows[0] ?? {}
  if (s.permitido === false) throw notFound('No se ha encontrado el usuario.')
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
}

const dayLabel = (day: string) => formatDate(madridStartOfDay(day))

/** The PDF of a statement (A4, DejaVu Sans embedded). */
export function extractoPdf(data: ExtractoData): Promise<Buffer> {
  const { regular, bold } = fontsFor()
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    bufferPages: true,
    info: {
      Title: `Extracto de caja de ${data.titular.nombre} ${data.titular.apellidos}`,
      Author: data.empresa ?? 'Back-office de viviendas',
      CreationDate: data.generado,
    },
  })
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  doc.registerFont('normal', regular)
  doc.registerFont('negrita', bold)

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

  const header = () => {
    const y = doc.y
    doc.font('negrita').fontSize(9)
    doc.text('Fecha', x.fecha, y, { width: cols.fecha, lineBreak: false })
    doc.text('Concepto', x.concepto, y, { width: conceptoWidth, lineBreak: false })
    doc.text('Cantidad', x.cantidad, y, { width: cols.cantidad, align: 'right', lineBreak: false })
    doc.text('Saldo', x.saldo, y, { width: cols.saldo, align: 'right', lineBreak: false })
    doc
      .moveTo(left, y + 13)
      .lineTo(left + width, y + 13)
      .lineWidth(0.5)
      .stroke()
    doc.x = left
    doc.y = y + 17
  }
  header()
  doc.font('normal').fontSize(9)
  if (!data.movimientos.length) doc.text('No hay movimientos en el periodo.', left, doc.y)
  for (const m of data.movimientos) {
    const height = Math.max(12, doc.heightOfString(m.concepto, { width: conceptoWidth }))
    if (doc.y + height > bottom()) {
      doc.addPage()
      header()
      doc.font('normal').fontSize(9)
    }
    const y = doc.y
    doc.text(formatDate(m.fecha), x.fecha, y, { width: cols.fecha, lineBreak: false })
    doc.text(formatMoney(m.cantidad), x.cantidad, y, { width: cols.cantidad, align: 'right', lineBreak: false })
    doc.text(formatMoney(m.saldo), x.saldo, y, { width: cols.saldo, align: 'right', lineBreak: false })
    doc.text(m.concepto, x.concepto, y, { width: conceptoWidth })
    doc.x = left
    doc.y = y + height + 3
  }

  if (doc.y + 80 > bottom()) doc.addPage()
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

  const range = doc.bufferedPageRange()
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i)
    // The footer sits in the bottom margin: with the margin in place, pdfkit would start a new page for it.
    const bottomMargin = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    const y = doc.page.height - bottomMargin - 8
    doc.font('normal').fontSize(8)
    doc.text(`Generado el ${formatDateTime(data.generado)}`, left, y, { width: width / 2, lineBreak: false })
    doc.text(`Página ${i + 1} de ${range.count}`, left + width / 2, y, { width: width / 2, align: 'right', lineBreak: false })
    doc.page.margins.bottom = bottomMargin
  }
  doc.end()
  return done
}

/** The statement of a resident as a PDF and its file name. */
export async function extracto(deps: AppDeps, actor: Actor, query: ExtractoQuery): Promise<{ pdf: Buffer; nombre: string }> {
  const data = await extractoData(deps, actor, query)
  return { pdf: await extractoPdf(data), nombre: `extracto-caja-${data.titular.nif}-${data.desde}-${data.hasta}.pdf` }
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
