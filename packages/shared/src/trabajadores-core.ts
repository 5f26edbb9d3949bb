/**
 * What a worker's screens need without zod: their texts and how each role is named. Imported as
 * `@vb/shared/trabajadores-core` by the web app's screens without a form (one's own record) and by the role badge;
 * trabajadores.ts (the schemas) re-exports all of it.
 */

export const trabajadorMessages = {
  nombreObligatorio: 'El nombre es obligatorio',
  nombreLongitud: 'El nombre debe tener entre 2 y 60 caracteres',
  nombreCaracteres: 'El nombre solo puede contener letras',
  apellidosObligatorios: 'Los apellidos son obligatorios',
  apellidosLongitud: 'Los apellidos deben tener entre 2 y 100 caracteres',
  apellidosCaracteres: 'Los apellidos solo pueden contener letras',
  emailObligatorio: 'El email es obligatorio',
  email: 'El email no es válido',
  emailSettings: 'El email debe ser válido',
  emailDuplicado: 'Ya existe un trabajador con ese email',
  nif: 'Formato de NIF/NIE no válido (ej. 12345678Z o X1234567Z)',
  noEncontrado: 'No se encontró el trabajador.',
  /** An admin's reset is for other workers; one's own goes through /cambiar-password-con-actual. */
  restablecerPropia: 'Para cambiar tu propia contraseña usa «Cambiar contraseña».',
  /** SPEC §7's `password` of PATCH /trabajadores/{id}: one's own temporary password, sent alone. */
  passwordSola: 'La contraseña se cambia sola, sin otros campos.',
  vacio: 'No hay trabajadores.',
  /** SPEC §8 Workers load. */
  errorCarga: 'Error al cargar trabajadores.',
  /** SPEC §2.20. */
  sinEmpresas: 'Sin empresas asociadas',
  cargando: 'Cargando…',
  empresasInvalidas: 'Selecciona empresas válidas',
  /** DECISIONS P3: an ADMIN creates workers in its own companies, at least one (else none of its lists shows them). */
  empresaObligatoria: 'Selecciona al menos una empresa',
  /** DECISIONS P1: deleting a worker also in a company the ADMIN does not belong to would change that company's data. */
  eliminarOtrasEmpresas: 'No puedes eliminar un trabajador que también pertenece a empresas donde no perteneces.',
  empresaInvalida: 'No se ha encontrado la empresa.',
  foto: 'La foto debe ser un archivo subido o una URL válida',
  /** DECISIONS P3: what a worker may not do to itself. */
  propioRol: 'No puedes cambiar tu propio rol.',
  propioActivo: 'No puedes desactivarte a ti mismo.',
  propioEliminar: 'No puedes eliminarte a ti mismo.',
  propioEmpresas: 'No puedes cambiar tus propias empresas.',
  propioCampos: 'Solo puedes cambiar tu nombre, tus apellidos y tu email.',
  /** Someone must always be able to administer the product. */
  ultimoSuperadmin: 'No se puede desactivar, eliminar ni cambiar de rol al último SUPERADMIN activo.',
  /** A link that is already there, or one that is not. */
  yaVinculado: 'El trabajador ya pertenece a esa empresa.',
  noVinculado: 'El trabajador no pertenece a esa empresa.',
} as const

/** SPEC §2.20, §2.10: how a role is named on screen. */
export const rolLabels = { SUPERADMIN: 'Superadministrador', ADMIN: 'Administrador', EMPLEADO: 'Empleado' } as const
