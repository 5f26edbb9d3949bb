// Code that runs inside the browser page for `npm run bench:daily -- --web` (page.evaluate sends its source):
// plain JavaScript, so the API's TypeScript program needs no DOM types.

/** Stores the session as the login screen does (SPEC §3 storage keys). */
export function setSession({ token, trabajador, empresaId }) {
  localStorage.setItem('token', token)
  localStorage.setItem('trabajador', JSON.stringify(trabajador))
  localStorage.setItem('empresa', JSON.stringify({ id: empresaId, nombre: 'Empresa 1' }))
}

/**
 * Clicks 'Mes siguiente' and times, with the performance API, until the new month is painted: its title says
 * `title`, the cell of `day` (a day of that month only, not shown in the previous grid) holds task chips,
 * nothing is loading, and one more animation frame has run. Also says when the calendar call's answer arrived
 * (resource timing), so the render alone is the rest.
 */
export async function timeMonthSwitch({ day, title }) {
  performance.clearResourceTimings()
  performance.mark('mes-siguiente')
  document.querySelector('button[aria-label="Mes siguiente"]').click()
  await new Promise((resolve) => {
    const check = () => {
      const heading = [...document.querySelectorAll('h2')].some((h) => h.textContent === title)
      const cell = document.querySelector(`td[data-dia="${day}"]`)
      if (heading && cell?.querySelector('.vb-chip') && !document.querySelector('[aria-busy="true"]')) {
        requestAnimationFrame(() => resolve())
      } else requestAnimationFrame(check)
    }
    check()
  })
  const total = performance.measure('mes-pintado', 'mes-siguiente').duration
  const start = performance.getEntriesByName('mes-siguiente')[0]?.startTime ?? 0
  const call = performance.getEntriesByType('resource').find((e) => e.name.includes('/api/planing-tareas/calendario'))
  const render = call ? total - (call.responseEnd - start) : Number.NaN
  performance.clearMarks()
  performance.clearMeasures()
  return { total, render, chips: document.querySelectorAll('table.vb-calendar .vb-chip').length }
}
