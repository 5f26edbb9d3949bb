import type { Resource } from '@vb/shared'
import type { IconName } from '../../components/icon'
import { screenList } from '../screens'

export interface MenuItem {
  to: string
  label: string
  icon: IconName
  /** Hidden from roles that may not list this resource (SPEC §6: Trabajadores and Logs hidden from EMPLEADO). */
  resource?: Resource
}

const group = (name: 'main' | 'config'): MenuItem[] =>
  screenList.flatMap((s) =>
    s.menu?.group === name ? [{ to: s.path, label: s.menu.label, icon: s.menu.icon, resource: s.resource }] : [],
  )

/** SPEC §2.2: side menu links, in the order the screens are declared. */
export const mainMenu = group('main')

/** SPEC §2.2: the 'Configuración' dropdown. */
export const configMenu = group('config')
