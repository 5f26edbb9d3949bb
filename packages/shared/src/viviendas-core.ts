/**
 * The homes' texts without zod: imported as `@vb/shared/viviendas-core` by the web app's screen, whose form loads
 * viviendas.ts (the schemas, which re-export this) when it first opens.
 */

export const viviendaMessages = {
  nombreObligatorio: 'La dirección es obligatoria',
  nombreLongitud: 'La dirección no puede superar 200 caracteres',
  empresaObligatoria: 'La empresa es obligatoria',
  empresaTipo: 'Selecciona una empresa',
  vacio: 'No hay viviendas.',
  /** SPEC §8 Homes load: the homes' list, and the homes a task's form offers. */
  errorCarga: 'Error al cargar las viviendas.',
  conUsuarios: 'No se puede eliminar la vivienda porque tiene usuarios. Traslada o elimina antes a sus usuarios.',
} as const
