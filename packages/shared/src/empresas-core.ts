/**
 * The companies' texts without zod: imported as `@vb/shared/empresas-core` by the web app's screen, whose form loads
 * empresas.ts (the schemas, which re-export this) when it first opens.
 */

export const empresaMessages = {
  nombreObligatorio: 'El nombre es obligatorio',
  nombreLongitud: 'El nombre debe tener entre 2 y 100 caracteres',
  nombreCaracteres: 'El nombre solo puede contener letras, números, espacios y los caracteres . , & ( ) -',
  logo: 'La URL del logo no es válida',
  vacio: 'No hay empresas.',
  noEncontrada: 'No se ha encontrado la empresa.',
} as const
