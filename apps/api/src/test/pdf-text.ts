import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'

/** The number of pages of a PDF. */
export async function pdfPages(pdf: Buffer): Promise<number> {
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false }).promise
  const n = doc.numPages
  await doc.destroy()
  return n
}

/** The text of every page of a PDF, one string per line, as a reader sees it (pdf.js, no native parts). */
export async function pdfLines(pdf: Buffer): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false }).promise
  const lines: string[] = []
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p)
    const content = await page.getTextContent()
    // Group the text items by their baseline, left to right.
    const rows = new Map<number, Array<{ x: number; s: string }>>()
    for (const item of content.items) {
      if (!('str' in item) || !item.str) continue
      const y = Math.round(item.transform[5] as number)
      const row = rows.get(y) ?? []
      row.push({ x: item.transform[4] as number, s: item.str })
      rows.set(y, row)
    }
    for (const y of [...rows.keys()].sort((a, b) => b - a)) {
      lines.push(
        (rows.get(y) ?? [])
          .sort((a, b) => a.x - b.x)
          .map((i) => i.s)
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim(),
      )
    }
  }
  await doc.destroy()
  return lines
}
