/**
 * A screen's code that fails to load because a new version of the app was put on the server while this page
 * was open: each build names its files by their content and replaces the last build's, so the screens this
 * page has not opened yet are gone. The page then reloads by itself, onto the same URL (the session is in
 * storage, so the worker stays logged in), and opens the screen from the new version.
 *
 * It reloads only when the server's index.html names another entry script than the one this page runs: a
 * file missing from the version this page already has, or a network that is down (a phone between two
 * rooms), shows the error screen with its 'Recargar' button instead, and a reload can never loop. A page that
 * needs no new code is told instead, and reloads when the worker chooses (watchForNewVersion, the shell's notice).
 */

/** How often an open page asks whether a new version is on the server (and each time its tab is shown again). */
export const NEW_VERSION_CHECK_MS = 10 * 60_000

/** Said above the screen when a new version is on the server: the worker reloads when it suits them. */
export const NUEVA_VERSION_MESSAGE =
  'Hay una versión nueva de la aplicación. Guarda lo que estés haciendo y recarga la página para usarla.'

/** What the page is doing about a screen that failed to load. The error screen stays blank while it is not 'idle'. */
export type NewVersionState = 'idle' | 'checking' | 'reloading'

let state: NewVersionState = 'idle'
const listeners = new Set<() => void>()

function setState(next: NewVersionState) {
  state = next
  for (const listener of listeners) listener()
}

export const newVersionState = {
  get: (): NewVersionState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

/** The entry script a page of index.html loads (Vite's `<script type="module" src>`), or null. */
export function entryScript(doc: ParentNode): string | null {
  return doc.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null
}

/** Whether the server now serves another version than this page's: its index.html names another entry script. */
export async function newVersionDeployed(current: string | null, fetchIndex: () => Promise<Response>): Promise<boolean> {
  if (!current) return false
  try {
    const res = await fetchIndex()
    if (!res.ok) return false
    const served = entryScript(new DOMParser().parseFromString(await res.text(), 'text/html'))
    return served !== null && served !== current
  } catch {
    return false
  }
}

/** The index.html the server serves now, never from a cache. */
const fetchIndex = (win: Window) => () => win.fetch('/', { cache: 'no-store', headers: { Accept: 'text/html' } })

/**
 * Calls `onDeployed` once when the server is found to serve another version than this page's: every
 * NEW_VERSION_CHECK_MS while the tab is shown, and whenever it is shown again. Returns the function that stops it.
 */
export function watchForNewVersion(onDeployed: () => void, win: Window = window): () => void {
  const current = entryScript(win.document)
  let stopped = false
  const check = () => {
    if (stopped || win.document.visibilityState !== 'visible') return
    void newVersionDeployed(current, fetchIndex(win)).then((deployed) => {
      if (!deployed || stopped) return
      stop()
      onDeployed()
    })
  }
  const timer = win.setInterval(check, NEW_VERSION_CHECK_MS)
  win.document.addEventListener('visibilitychange', check)
  function stop() {
    stopped = true
    win.clearInterval(timer)
    win.document.removeEventListener('visibilitychange', check)
  }
  return stop
}

/**
 * Listens for Vite's `vite:preloadError` (a lazily loaded file that failed: a screen, a form's picker) and
 * reloads when a new version is there. The error still reaches the router, whose error screen stays blank
 * while the check runs.
 */
export function reloadOnNewVersion(win: Window = window): void {
  const current = entryScript(win.document)
  win.addEventListener('vite:preloadError', () => {
    if (state !== 'idle') return
    setState('checking')
    void newVersionDeployed(current, fetchIndex(win)).then((deployed) => {
      if (!deployed) return setState('idle')
      setState('reloading')
      win.location.reload()
    })
  })
}
