import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  entryScript,
  NEW_VERSION_CHECK_MS,
  newVersionDeployed,
  newVersionState,
  reloadOnNewVersion,
  watchForNewVersion,
} from './new-version'

const index = (entry: string) =>
  `<!doctype html><html lang="es"><head><script type="module" crossorigin src="${entry}"></script><link rel="modulepreload" href="/assets/react-1.js"></head><body><div id="root"></div></body></html>`
const html =
  (text: string, status = 200) =>
  async () =>
    new Response(text, { status, headers: { 'content-type': 'text/html' } })

describe('newVersionDeployed', () => {
  it('is true only when the served index.html names another entry script', async () => {
    expect(await newVersionDeployed('/assets/index-A.js', html(index('/assets/index-B.js')))).toBe(true)
    expect(await newVersionDeployed('/assets/index-A.js', html(index('/assets/index-A.js')))).toBe(false)
  })

  it('is false when it cannot tell: the network down, an error page, no entry script here or there', async () => {
    const down = async (): Promise<Response> => {
      throw new TypeError('Failed to fetch')
    }
    expect(await newVersionDeployed('/assets/index-A.js', down)).toBe(false)
    expect(await newVersionDeployed('/assets/index-A.js', html(index('/assets/index-B.js'), 503))).toBe(false)
    expect(await newVersionDeployed('/assets/index-A.js', html('<p>Mantenimiento</p>'))).toBe(false)
    expect(await newVersionDeployed(null, html(index('/assets/index-B.js')))).toBe(false)
  })
})

describe('reloadOnNewVersion', () => {
  afterEach(() => {
    document.head.innerHTML = ''
  })

  /** A window with this page's entry script, whose server serves `served` at '/'. */
  function page(served: () => Promise<Response>) {
    document.head.innerHTML = '<script type="module" src="/assets/index-A.js"></script>'
    const target = new EventTarget()
    const reload = vi.fn()
    const fetch = vi.fn(served)
    const win = {
      document,
      addEventListener: target.addEventListener.bind(target),
      fetch,
      location: { reload },
    } as unknown as Window
    reloadOnNewVersion(win)
    const fail = () => target.dispatchEvent(new Event('vite:preloadError', { cancelable: true }))
    return { reload, fetch, fail }
  }

  const settled = () => vi.waitFor(() => expect(newVersionState.get()).not.toBe('checking'))

  it('reloads once when a screen fails to load and the server has a new version, blank meanwhile', async () => {
    const p = page(html(index('/assets/index-B.js')))
    p.fail()
    expect(newVersionState.get()).toBe('checking')
    p.fail()
    await settled()
    expect(newVersionState.get()).toBe('reloading')
    expect(p.reload).toHaveBeenCalledTimes(1)
    expect(p.fetch).toHaveBeenCalledTimes(1)
    expect(p.fetch).toHaveBeenCalledWith('/', expect.objectContaining({ cache: 'no-store' }))
  })

  it('does not reload when the server has the same version or cannot be reached: the error screen shows', async () => {
    // A module's state is the page's: a fresh copy for each case.
    vi.resetModules()
    const fresh = await import('./new-version')
    for (const served of [html(index('/assets/index-A.js')), () => Promise.reject(new TypeError('Failed to fetch'))]) {
      document.head.innerHTML = '<script type="module" src="/assets/index-A.js"></script>'
      const target = new EventTarget()
      const reload = vi.fn()
      fresh.reloadOnNewVersion({
        document,
        addEventListener: target.addEventListener.bind(target),
        fetch: served,
        location: { reload },
      } as unknown as Window)
      target.dispatchEvent(new Event('vite:preloadError'))
      expect(fresh.newVersionState.get()).toBe('checking')
      await vi.waitFor(() => expect(fresh.newVersionState.get()).toBe('idle'))
      expect(reload).not.toHaveBeenCalled()
    }
  })

  it('reads the entry script of a built page', () => {
    document.head.innerHTML =
      '<link rel="modulepreload" href="/assets/x.js"><script type="module" crossorigin src="/assets/index-Bk.js"></script>'
    expect(entryScript(document)).toBe('/assets/index-Bk.js')
  })
})

describe('watchForNewVersion', () => {
  afterEach(() => {
    vi.useRealTimers()
    document.head.innerHTML = ''
  })

  /** A window whose server serves `entries` one after another at '/', shown or hidden as `visible` says. */
  function tab(entries: string[]) {
    document.head.innerHTML = '<script type="module" src="/assets/index-A.js"></script>'
    let visible = true
    let served = 0
    const fetch = vi.fn(async () => new Response(index(entries[Math.min(served++, entries.length - 1)] as string)))
    const win = {
      document: {
        get visibilityState() {
          return visible ? 'visible' : 'hidden'
        },
        querySelector: (selector: string) => document.querySelector(selector),
        addEventListener: (type: string, listener: EventListener) => document.addEventListener(type, listener),
        removeEventListener: (type: string, listener: EventListener) => document.removeEventListener(type, listener),
      },
      fetch,
      setInterval: window.setInterval.bind(window),
      clearInterval: window.clearInterval.bind(window),
    } as unknown as Window
    return { win, fetch, hide: (h: boolean) => (visible = !h) }
  }

  it('asks every ten minutes while shown, and says so once when another version is served', async () => {
    vi.useFakeTimers()
    const t = tab(['/assets/index-A.js', '/assets/index-B.js'])
    const onDeployed = vi.fn()
    const stop = watchForNewVersion(onDeployed, t.win)
    expect(t.fetch).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(NEW_VERSION_CHECK_MS)
    expect(t.fetch).toHaveBeenCalledTimes(1)
    expect(onDeployed).not.toHaveBeenCalled()
    // Hidden, it does not ask.
    t.hide(true)
    await vi.advanceTimersByTimeAsync(NEW_VERSION_CHECK_MS)
    expect(t.fetch).toHaveBeenCalledTimes(1)
    // Shown again: it asks at once, finds the new version, and stops asking.
    t.hide(false)
    document.dispatchEvent(new Event('visibilitychange'))
    await vi.waitFor(() => expect(onDeployed).toHaveBeenCalledTimes(1))
    await vi.advanceTimersByTimeAsync(3 * NEW_VERSION_CHECK_MS)
    document.dispatchEvent(new Event('visibilitychange'))
    expect(t.fetch).toHaveBeenCalledTimes(2)
    expect(onDeployed).toHaveBeenCalledTimes(1)
    stop()
  })

  it('stops when asked to (the screen closed)', async () => {
    vi.useFakeTimers()
    const t = tab(['/assets/index-B.js'])
    const onDeployed = vi.fn()
    watchForNewVersion(onDeployed, t.win)()
    await vi.advanceTimersByTimeAsync(2 * NEW_VERSION_CHECK_MS)
    document.dispatchEvent(new Event('visibilitychange'))
    expect(t.fetch).not.toHaveBeenCalled()
    expect(onDeployed).not.toHaveBeenCalled()
  })
})
