import { recordPaths } from '../lib/record-paths'
import { type ScreenId, screens } from './screens'

/** SPEC §2.1: the Spanish URLs, from the screens' declarations (screens.ts). */
export const paths = {
  ...(Object.fromEntries(Object.entries(screens).map(([id, s]) => [id, s.path])) as {
    [K in ScreenId]: (typeof screens)[K]['path']
  }),
  ...recordPaths,
}
