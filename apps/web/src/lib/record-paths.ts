/**
 * SPEC §2.1: the URLs of a resident's records, with the NIF upper-cased as the residents list links them. In
 * lib/ (not app/paths.ts) so a screen can link to them without importing the screens registry, which imports
 * every screen.
 */
export const recordPaths = {
  documentacion: (nif: string) => `/documentacion/${encodeURIComponent(nif.toUpperCase())}`,
  caja: (nif: string) => `/caja/${encodeURIComponent(nif.toUpperCase())}`,
}
