import type { Resource } from '@vb/shared'
import type { IconName } from '../../components/icon'
import { paths } from '../paths'

export interface MenuItem {
  to: string
  label: string
  icon: IconName
  /** Hidden from roles that may not list this resource (SPEC §6: Trabajadores and Logs hidden from EMPLEADO). */
  resource?: Resource
}

/** SPEC §2.2: side menu links, in this order. */
export const mainMenu: MenuItem[] = [
  { to: paths.empresas, label: 'Empresas', icon: 'building' },
  { to: paths.viviendas, label: 'Viviendas', icon: 'house-door' },
  { to: paths.usuarios, label: 'Usuarios', icon: 'people' },
  { to: paths.informes, label: 'Informes', icon: 'file-earmark-bar-graph' },
  { to: paths.planing, label: 'Planing dia tareas', icon: 'calendar3' },
  { to: paths.tareas, label: 'Tareas Trabajador', icon: 'list-check' },
  { to: paths.presupuestos, label: 'Presupuestos', icon: 'cash-coin' },
  { to: paths.contactos, label: 'Contactos', icon: 'person-lines-fill' },
]

/** SPEC §2.2: the 'Configuración' dropdown. */
export const configMenu: MenuItem[] = [
  { to: paths.trabajadores, label: 'Trabajadores', icon: 'person-badge', resource: 'trabajadores' },
  { to: paths.logs, label: 'Logs', icon: 'journal-text', resource: 'logs' },
  { to: paths.integraciones, label: 'Integraciones', icon: 'plug' },
]
