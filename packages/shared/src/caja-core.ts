/**
 * The cash ledger's texts, limits and headers without zod: imported as `@vb/shared/caja-core` by the web app's screen,
 * whose form loads caja.ts (the schemas, which re-export this) when it first opens.
 */
import { cantidadMessages } from './money'

/** SPEC §5 Cash movement, §8 Cash and DECISIONS D7, word for word. */
export const cajaMessages = {
  conceptoObligatorio: 'El concepto es obligatorio',
  conceptoLargo: 'El concepto no puede superar 150 caracteres',
  ...cantidadMessages,
  fechaObligatoria: 'La fecha es obligatoria',
  fechaInvalida: 'La fecha no es válida',
  usuarioObligatorio: 'El usuario es obligatorio',
  usuarioInvalido: 'Selecciona un usuario válido',
  justificanteInvalido: 'El justificante debe ser un archivo subido',
  rangoInvalido: 'La fecha final no puede ser anterior a la inicial',
  errorCarga: 'No se pudo cargar la caja del usuario.',
  errorCrear: 'No se pudo crear el movimiento.',
  errorActualizar: 'No se pudo actualizar el movimiento.',
  errorEliminar: 'No se pudo eliminar el movimiento.',
  creado: 'Movimiento creado correctamente',
  actualizado: 'Movimiento actualizado correctamente',
  eliminado: 'Movimiento eliminado correctamente',
  vacio: 'No hay movimientos',
  noEncontrado: 'No se ha encontrado el movimiento.',
  /** DECISIONS L3 (stale edits of money): the second of two editors. */
  cambiado: 'El movimiento ha cambiado desde que lo abriste. Vuelve a cargarlo.',
  usuarioRequerido: 'Indica el usuario (usuarioId o nif).',
  extractoRangoLargo:
    'Un extracto abarca como máximo un año (366 días). Elige un periodo más corto con las fechas «desde» y «hasta».',
  extractoDemasiados:
    'El periodo tiene más de 5.000 movimientos, el máximo de un extracto. Elige un periodo más corto con las fechas «desde» y «hasta» (por ejemplo, un trimestre).',
} as const

/**
 * Limits of a statement PDF (GET /api/caja-usuario/extracto): at most one year of days and 5,000
 * movements, so that one statement is made in a bounded time and memory; beyond them the request is
 * refused with 400 and a message that says how to narrow it.
 */
export const EXTRACTO_MAX_DIAS = 366
export const EXTRACTO_MAX_MOVIMIENTOS = 5000

/** Days from `desde` to `hasta`, both included (YYYY-MM-DD). */
export function diasDelRango(desde: string, hasta: string): number {
  return Math.round((Date.parse(`${hasta}T00:00:00Z`) - Date.parse(`${desde}T00:00:00Z`)) / 86_400_000) + 1
}

/** SPEC §9: cash concept at most 150 characters. */
export const CONCEPTO_MAX = 150

/** Response headers of the ledger list (besides X-Total-Count), decimal strings like '1234.50'. */
export const CAJA_HEADERS = {
  /** The resident's whole balance ('Saldo: {sum} €'). */
  saldo: 'X-Saldo',
  /** The balance before `desde` (the opening balance of the range); the whole balance's start, 0, without it. */
  saldoInicial: 'X-Saldo-Inicial',
  /** The balance at the end of `hasta` (the closing balance of the range); the whole balance without it. */
  saldoFinal: 'X-Saldo-Final',
} as const
