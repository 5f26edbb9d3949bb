import { afterEach, describe, expect, it, vi } from 'vitest'
import { entryScript, newVersionDeployed, newVersionState, reloadOnNewVersion } from './new-version'

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
