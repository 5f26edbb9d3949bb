/**
 * The residents' texts without zod: imported as `@vb/shared/usuarios-core` by the web app's screens, whose form loads
 * usuarios.ts (the schemas, which re-export this) when it first opens.
 */

export const usuarioMessages = {
  nombreObligatorio: 'El nombre es obligatorio',
  nombreLongitud: 'El nombre debe tener entre 2 y 50 caracteres',
  nombreCaracteres: 'El nombre solo puede contener letras y espacios',
  apellidosObligatorios: 'Los apellidos son obligatorios',
  apellidosLongitud: 'Los apellidos deben tener entre 2 y 100 caracteres',
  apellidosCaracteres: 'Los apellidos solo pueden contener letras y espacios',
  nifObligatorio: 'El NIF es obligatorio',
  nifFormato: 'El NIF debe tener 8 números y 1 letra (ej: 12345678Z)',
  nifInvalido: 'El NIF no es válido',
  nifDuplicado: 'Ya existe un usuario con ese NIF',
  viviendaObligatoria: 'La vivienda es obligatoria',
  viviendaTipo: 'Selecciona una vivienda',
  viviendaInvalida: 'Selecciona una vivienda válida',
  grado: 'El grado de dependencia debe ser PVS o PEI',
  foto: 'La foto debe ser una URL válida',
  sinVivienda: 'Sin vivienda',
  vacio: 'No hay usuarios.',
  errorCarga: 'Error cargando usuarios o viviendas',
  noEncontrado: 'No se ha encontrado el usuario.',
  /** Only a SUPERADMIN sees a resident without a home (DECISIONS P1): anyone else would lose it. */
  sinViviendaSoloSuperadmin:
    'Solo un superadministrador puede dejar a un usuario sin vivienda. Para trasladarlo, vincúlalo a su nueva vivienda.',
} as const

/** SPEC §8 Documents and Cash: the NIF of the screen's URL matches no resident the worker reaches. */
export const usuarioNifNoEncontrado = (nif: string) => `No se encontró ningún usuario con NIF ${nif}`
