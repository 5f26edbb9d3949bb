/**
 * The contacts' texts without zod: imported as `@vb/shared/contactos-core` by the web app's screen, whose form loads
 * contactos.ts (the schemas, which re-export this) when it first opens.
 */

export const contactoMessages = {
  nombreComercialObligatorio: 'El nombre comercial es obligatorio',
  nombreComercialLongitud: 'El nombre comercial debe tener entre 3 y 100 caracteres',
  nombreComercialCaracteres: 'El nombre comercial solo puede contener letras, números, espacios y puntuación básica',
  agenteObligatorio: 'El agente es obligatorio',
  agenteLongitud: 'El agente debe tener entre 2 y 60 caracteres',
  agenteCaracteres: 'El agente solo puede contener letras, espacios, apóstrofos y guiones',
  correoObligatorio: 'El correo es obligatorio',
  correo: 'El correo no es válido',
  telefonoObligatorio: 'El teléfono es obligatorio',
  telefonoLongitud: 'El teléfono debe tener entre 7 y 20 caracteres',
  telefonoCaracteres: 'El teléfono solo puede contener números, espacios, guiones y un + inicial',
  empresaObligatoria: 'La empresa es obligatoria',
  empresaTipo: 'Selecciona una empresa',
  vacio: 'No hay contactos.',
} as const
