/**
 * The documents' texts and the title's lengths without zod: imported as `@vb/shared/documentos-core` by the web app's
 * screens, whose form loads documentos.ts (the schemas, which re-export this) when it first opens.
 */

/** SPEC §5 Resident document and §8 Documents, word for word. */
export const documentoMessages = {
  tituloObligatorio: 'El título es obligatorio',
  tituloCorto: 'El título debe tener al menos 3 caracteres',
  tituloLargo: 'El título no puede superar 120 caracteres',
  archivoObligatorio: 'La URL del archivo es obligatoria',
  archivoInvalido: 'La URL del archivo no es válida',
  fechaObligatoria: 'La fecha es obligatoria',
  fechaInvalida: 'La fecha no es válida',
  usuarioObligatorio: 'El usuario es obligatorio',
  usuarioInvalido: 'Selecciona un usuario válido',
  errorCarga: 'No se pudo cargar la documentación del usuario.',
  faltaNif: 'Ruta inválida: falta el NIF.',
  errorCrear: 'No se pudo crear el documento. Revisa los datos.',
  errorActualizar: 'No se pudo actualizar el documento.',
  errorEliminar: 'No se pudo eliminar el documento.',
  creado: 'Documento creado correctamente',
  actualizado: 'Documento actualizado correctamente',
  eliminado: 'Documento eliminado correctamente',
  vacio: 'No hay documentos',
  noEncontrado: 'No se ha encontrado el documento.',
  /** A stale edit (CONTRIBUTING.md, habits). */
  cambiado: 'El documento ha cambiado desde que lo abriste. Vuelve a cargarlo.',
} as const

/** SPEC §9: document title 3-120 characters. */
export const TITULO_MIN = 3
export const TITULO_MAX = 120
