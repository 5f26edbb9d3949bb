import type { Readable } from 'node:stream'
import { formatDate, formatDateTime, formatMoney, madridStartOfDay } from '@vb/shared'
import PDFDocument from 'pdfkit'
import type { UsuarioTitular } from '../usuarios/usuarios.service'

/**
 * The layout of a cash statement PDF (A4, DejaVu Sans embedded), apart from the app: it runs in a worker
 * thread (caja-usuario.extracto-worker.ts), so that making one never holds up the server's event loop.
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

/** Rows laid out (or measured) between two turns of the worker's event loop (other jobs interleave, a cancel is heard). */
const ROWS_PER_SLICE = 50
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

const dayLabel = (day: string) => formatDate(madridStartOfDay(day))

/**
 * The PDF of a statement (A4, DejaVu Sans embedded), as a stream that starts at once. The rows are first
 * measured, so the number of pages is known before the first page is finished (its footer says "Página 1
 * de N"), then laid out; every page leaves for the stream when the next one begins, and every slice of
 * rows gives the event loop a turn. Nothing is kept but the page being laid out (no buffered pages).
 */
export function extractoStream(data: ExtractoData, fonts: { regular: Uint8Array; bold: Uint8Array }): Readable {
  const regular = Buffer.from(fonts.regular)
  const bold = Buffer.from(fonts.bold)
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
