import { type ScreenId, screens } from './screens'

/** SPEC §2.1: the Spanish URLs, from the screens' declarations (screens.ts). */
export const paths = {
  ...(Object.fromEntries(Object.entries(screens).map(([id, s]) => [id, s.path])) as {
    [K in ScreenId]: (typeof screens)[K]['path']
  }),
  documentacion: (nif: string) => `/documentacion/${encodeURIComponent(nif.toUpperCase())}`,
  caja: (nif: string) => `/caja/${encodeURIComponent(nif.toUpperCase())}`,
}
