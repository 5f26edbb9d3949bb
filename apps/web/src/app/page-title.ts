/**
 * DECISIONS D14: the page title is the screen's Spanish name with its accents (SPEC §2.2 named it after the
 * first path segment; that rule remains for paths not listed here). The default is 'Inicio'.
 */
const TITLES: Record<string, string> = {
  inicio: 'Inicio',
  empresas: 'Empresas',
  viviendas: 'Viviendas',
  usuarios: 'Usuarios',
  contactos: 'Contactos',
  documentacion: 'Documentación',
  caja: 'Caja',
  informes: 'Informes',
  planing: 'Planing',
  configuracion: 'Configuración',
  trabajadores: 'Trabajadores',
  logs: 'Logs',
  tareas: 'Tareas',
  presupuestos: 'Presupuestos',
  integraciones: 'Integraciones',
  'ficha-trabajador': 'Ficha del trabajador',
  configuracionUsuario: 'Configuración de usuario',
  'cambiar-password': 'Cambiar contraseña',
  'cambiar-password-con-actual': 'Cambiar contraseña',
  'recuperar-contraseña': 'Recuperar contraseña',
}

export function pageTitle(pathname: string): string {
  const first = pathname.split('/').find((s) => s !== '')
  if (!first) return 'Inicio'
  let segment = first
  try {
    segment = decodeURIComponent(first)
  } catch {
    // A malformed escape keeps the raw segment.
  }
  return TITLES[segment] ?? segment.charAt(0).toUpperCase() + segment.slice(1)
}
