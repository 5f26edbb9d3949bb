/**
 * Deleting a record that other rows still point at is refused with 409 and a message naming what it still
 * holds (nothing vanishes or is left orphaned by a deletion). The server finds those rows from the database's
 * foreign keys, so a new table is covered without being listed anywhere; this file only names them in Spanish.
 */

/** Singular and plural of the rows of a table, as a refusal names them. */
export const dependentNouns: Record<string, readonly [singular: string, plural: string]> = {
  empresas: ['empresa', 'empresas'],
  viviendas: ['vivienda', 'viviendas'],
  usuarios: ['usuario', 'usuarios'],
  contactos: ['contacto', 'contactos'],
  trabajadores: ['trabajador', 'trabajadores'],
  trabajador_empresas: ['trabajador vinculado', 'trabajadores vinculados'],
  planing_tareas: ['tarea del planing', 'tareas del planing'],
  planing_tarea_usuarios: ['tarea del planing', 'tareas del planing'],
  tareas_trabajador: ['tarea de trabajador', 'tareas de trabajadores'],
  presupuestos: ['presupuesto', 'presupuestos'],
  documentos_usuario: ['documento', 'documentos'],
  caja_usuario: ['movimiento de caja', 'movimientos de caja'],
  notificaciones: ['notificación', 'notificaciones'],
  uploads: ['archivo subido', 'archivos subidos'],
}

/** How many rows of one table still point at the record. */
export interface Dependent {
  /** The SQL name of the table. */
  tabla: string
  n: number
}

const known = Object.keys(dependentNouns)
const rank = (tabla: string) => (known.includes(tabla) ? known.indexOf(tabla) : known.length)

/**
 * '1 vivienda y 2 contactos': the dependents with rows, in the order of `dependentNouns` (an unknown table
 * last, by its name).
 */
export function dependentsText(dependents: readonly Dependent[]): string {
  const parts = dependents
    .filter((d) => d.n > 0)
    .sort((a, b) => rank(a.tabla) - rank(b.tabla) || a.tabla.localeCompare(b.tabla))
    .map((d) => {
      const [one, many] = dependentNouns[d.tabla] ?? [`registro de ${d.tabla}`, `registros de ${d.tabla}`]
      return `${d.n.toLocaleString('es-ES')} ${d.n === 1 ? one : many}`
    })
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} y ${parts.at(-1)}` : (parts[0] ?? '')
}

/**
 * The refusal of a deletion: 'No se puede eliminar la empresa: todavía tiene 1 vivienda y 2 contactos.
 * Elimínalos o trasládalos antes a otra empresa.' `record` names it with its article ('la empresa');
 * `moveTo`, where its dependents could go instead ('otra empresa').
 */
export function deletionBlockedMessage(record: string, dependents: readonly Dependent[], moveTo?: string): string {
  return `No se puede eliminar ${record}: todavía tiene ${dependentsText(dependents)}. Elimínalos o trasládalos antes${
    moveTo ? ` a ${moveTo}` : ''
  }.`
}
