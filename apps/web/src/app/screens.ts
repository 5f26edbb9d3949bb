import type { Resource } from '@vb/shared'
import type { ComponentType } from 'react'
import type { IconName } from '../components/icon'
import { registerShownIn } from '../lib/resource'

/**
 * Every screen, declared once (docs/adding-a-resource.md): its URL (SPEC §2.1), its title (DECISIONS D14),
 * its menu entry (SPEC §2.2, in the order of this list), the role check of its route, what it loads, and
 * the resources whose data it shows. The router (router.tsx), the side menu (layout/menu.ts), the page
 * title (page-title.ts), `paths` and the refresh of lists after a change all read this list.
 */
export interface Screen {
  path: string
  /** The page title and `document.title`. */
  title: string
  /**
   * Where the route sits: 'shell' (the default: logged in with the password changed, inside the menu and
   * top bar), 'plain' (the same, on a page of its own), 'token' (logged in, before the password change),
   * 'public'.
   */
  layout?: 'shell' | 'plain' | 'token' | 'public'
  /** The page component, fetched when the route first opens (each screen is its own chunk). */
  load?: () => Promise<ComponentType>
  /** More URL patterns of the same screen (a NIF in the path). */
  patterns?: readonly string[]
  /** An entry in the side menu or in its 'Configuración' group. */
  menu?: { group: 'main' | 'config'; label: string; icon: IconName }
  /**
   * The resource the screen lists (SPEC §6): a role that may not list it never sees the menu entry, and
   * is sent to /inicio from the route (SPEC §2.10, §2.11; DECISIONS D14).
   */
  resource?: Resource
  /** Resources whose records this screen shows besides its own: its lists refresh when they change. */
  shows?: readonly Resource[]
}

const page =
  <M>(load: () => Promise<M>, pick: (module: M) => ComponentType) =>
  async () =>
    pick(await load())

export const screens = {
  login: { path: '/', title: 'Inicio', layout: 'public' },
  recuperar: {
    path: '/recuperar-contraseña',
    title: 'Recuperar contraseña',
    layout: 'public',
    load: page(
      () => import('../features/auth/recuperar-password-page'),
      (m) => m.RecuperarPasswordPage,
    ),
  },
  cambiarPassword: {
    path: '/cambiar-password',
    title: 'Cambiar contraseña',
    layout: 'token',
    load: page(
      () => import('../features/auth/cambiar-password-page'),
      (m) => m.CambiarPasswordPage,
    ),
  },
  cambiarPasswordConActual: {
    path: '/cambiar-password-con-actual',
    title: 'Cambiar contraseña',
    layout: 'plain',
    load: page(
      () => import('../features/auth/cambiar-password-con-actual-page'),
      (m) => m.CambiarPasswordConActualPage,
    ),
  },
  inicio: {
    path: '/inicio',
    title: 'Inicio',
    load: page(
      () => import('../features/inicio/inicio-page'),
      (m) => m.InicioPage,
    ),
  },
  empresas: {
    path: '/empresas',
    title: 'Empresas',
    resource: 'empresas',
    menu: { group: 'main', label: 'Empresas', icon: 'building' },
    load: page(
      () => import('../features/empresas/empresas-page'),
      (m) => m.EmpresasPage,
    ),
  },
  viviendas: {
    path: '/viviendas',
    title: 'Viviendas',
    resource: 'viviendas',
    shows: ['empresas'],
    menu: { group: 'main', label: 'Viviendas', icon: 'house-door' },
    load: page(
      () => import('../features/viviendas/viviendas-page'),
      (m) => m.ViviendasPage,
    ),
  },
  usuarios: {
    path: '/usuarios',
    title: 'Usuarios',
    resource: 'usuarios',
    // A home's name in each row, and the PIR badge that the resident's documents decide.
    shows: ['viviendas', 'documentos-usuario'],
    menu: { group: 'main', label: 'Usuarios', icon: 'people' },
    load: page(
      () => import('../features/usuarios/usuarios-page'),
      (m) => m.UsuariosPage,
    ),
  },
  informes: {
    path: '/informes',
    title: 'Informes',
    menu: { group: 'main', label: 'Informes', icon: 'file-earmark-bar-graph' },
    load: page(
      () => import('../features/informes/informes-page'),
      (m) => m.InformesPage,
    ),
  },
  planing: {
    path: '/planing',
    title: 'Planing',
    resource: 'planing-tareas',
    // Each task shows its residents' names.
    shows: ['usuarios'],
    menu: { group: 'main', label: 'Planing dia tareas', icon: 'calendar3' },
    load: page(
      () => import('../features/planing/planing-page'),
      (m) => m.PlaningPage,
    ),
  },
  tareas: {
    path: '/tareas',
    title: 'Tareas',
    resource: 'tareas-trabajador',
    shows: ['viviendas'],
    menu: { group: 'main', label: 'Tareas Trabajador', icon: 'list-check' },
    load: page(
      () => import('../features/tareas/tareas-page'),
      (m) => m.TareasPage,
    ),
  },
  presupuestos: {
    path: '/presupuestos',
    title: 'Presupuestos',
    resource: 'presupuestos',
    shows: ['viviendas'],
    menu: { group: 'main', label: 'Presupuestos', icon: 'cash-coin' },
    load: page(
      () => import('../features/presupuestos/presupuestos-page'),
      (m) => m.PresupuestosPage,
    ),
  },
  contactos: {
    path: '/contactos',
    title: 'Contactos',
    resource: 'contactos',
    shows: ['empresas'],
    menu: { group: 'main', label: 'Contactos', icon: 'person-lines-fill' },
    load: page(
      () => import('../features/contactos/contactos-page'),
      (m) => m.ContactosPage,
    ),
  },
  // Without a NIF the records screens say SPEC §8's 'Ruta inválida: falta el NIF.'.
  documentacion: {
    path: '/documentacion',
    title: 'Documentación',
    patterns: ['/documentacion/:nif'],
    load: page(
      () => import('../features/documentacion/documentacion-page'),
      (m) => m.DocumentacionPage,
    ),
  },
  caja: {
    path: '/caja',
    title: 'Caja',
    patterns: ['/caja/:nif'],
    load: page(
      () => import('../features/caja/caja-page'),
      (m) => m.CajaPage,
    ),
  },
  configuracion: {
    path: '/configuracion',
    title: 'Configuración',
    load: page(
      () => import('../features/configuracion/configuracion-page'),
      (m) => m.ConfiguracionPage,
    ),
  },
  trabajadores: {
    path: '/trabajadores',
    title: 'Trabajadores',
    resource: 'trabajadores',
    // Each worker's companies by name.
    shows: ['empresas'],
    menu: { group: 'config', label: 'Trabajadores', icon: 'person-badge' },
    load: page(
      () => import('../features/trabajadores/trabajadores-page'),
      (m) => m.TrabajadoresPage,
    ),
  },
  logs: {
    path: '/logs',
    title: 'Logs',
    resource: 'logs',
    // Every change writes an entry: the log is read again after any of them.
    shows: [
      'empresas',
      'viviendas',
      'usuarios',
      'contactos',
      'trabajadores',
      'planing-tareas',
      'tareas-trabajador',
      'presupuestos',
      'documentos-usuario',
      'caja-usuario',
    ],
    menu: { group: 'config', label: 'Logs', icon: 'journal-text' },
    load: page(
      () => import('../features/logs/logs-page'),
      (m) => m.LogsPage,
    ),
  },
  integraciones: {
    path: '/integraciones',
    title: 'Integraciones',
    menu: { group: 'config', label: 'Integraciones', icon: 'plug' },
    load: page(
      () => import('../features/integraciones/integraciones-page'),
      (m) => m.IntegracionesPage,
    ),
  },
  fichaTrabajador: {
    path: '/ficha-trabajador',
    title: 'Ficha del trabajador',
    load: page(
      () => import('../features/perfil/ficha-trabajador-page'),
      (m) => m.FichaTrabajadorPage,
    ),
  },
  configuracionUsuario: {
    path: '/configuracionUsuario',
    title: 'Configuración de usuario',
    load: page(
      () => import('../features/perfil/configuracion-usuario-page'),
      (m) => m.ConfiguracionUsuarioPage,
    ),
  },
} as const satisfies Record<string, Screen>

export type ScreenId = keyof typeof screens
export const screenList: ReadonlyArray<Screen & { id: ScreenId }> = Object.entries(screens).map(([id, s]) => ({
  ...(s as Screen),
  id: id as ScreenId,
}))

for (const s of screenList) if (s.resource && s.shows) registerShownIn(s.resource, s.shows)
