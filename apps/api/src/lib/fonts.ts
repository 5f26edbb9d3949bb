import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * The fonts the PDFs embed: DejaVu Sans (Spanish accents, ñ, ¿¡, € and much more), from the
 * `dejavu-fonts-ttf` package. A missing one is our installation's fault, not the database's nor the
 * request's: it answers 500 with a log line of its own (plugins/errors.ts).
 */
export class MissingFontError extends Error {
  override name = 'MissingFontError'
  constructor(
    readonly font: string,
    cause: unknown,
  ) {
    super(`font ${font} cannot be read: ${(cause as Error)?.message ?? cause}`, { cause })
  }
}

const require = createRequire(import.meta.url)
const DEFAULT_FILES = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
}
let files = DEFAULT_FILES
let loaded: { regular: Buffer; bold: Buffer } | undefined

function read(name: string): Buffer {
  try {
    return readFileSync(name.startsWith('/') ? name : require.resolve(name))
  } catch (err) {
    throw new MissingFontError(name, err)
  }
}

/** The PDF fonts, read once. */
export function pdfFonts(): { regular: Buffer; bold: Buffer } {
  loaded ??= { regular: read(files.regular), bold: read(files.bold) }
  return loaded
}

/** Tests: other font files (a missing one, to see how its absence is reported); no argument restores the defaults. */
export function usePdfFontFiles(next: { regular: string; bold: string } = DEFAULT_FILES): void {
  files = next
  loaded = undefined
}
