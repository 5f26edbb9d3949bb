import type { Resource } from '@vb/shared'
import { paths } from '../paths'

export interface MenuItem {
  to: string
  label: string
  icon: string
  /** Hidden from roles that may not list this resource (SPEC §6: Trabajadores and Logs hidden from EMPLEADO). */
  resource?: Resource
}

/** SPEC §2.2: side menu links, in this order. */
export const mainMenu: MenuItem[] = [
  { to: paths.empresas, label: 'Empresas', icon: 'bi-building' },
  { to: paths.viviendas, label: 'Viviendas', icon: 'bi-house-door' },
  { to: paths.usuarios, label: 'Usuarios', icon: 'bi-people' },
  { to: paths.informes, label: 'Informes', icon: 'bi-file-earmark-bar-graph' },
  { to: paths.planing, label: 'Planing dia tareas', icon: 'bi-calendar3' },
  { to: paths.tareas, label: 'Tareas Trabajador', icon: 'bi-list-check' },
  { to: paths.presupuestos, label: 'Presupuestos', icon: 'bi-cash-coin' },
  { to: paths.contactos, label: 'Contactos', icon: 'bi-person-lines-fill' },
]

/** SPEC §2.2: the 'Configuración' dropdown. */
export const configMenu: MenuItem[] = [
  { to: paths.trabajadores, label: 'Trabajadores', icon: 'bi-person-badge', resource: 'trabajadores' },
  { to: paths.logs, label: 'Logs', icon: 'bi-journal-text', resource: 'logs' },
  { to: paths.integraciones, label: 'Integraciones', icon: 'bi-plug' },
]
