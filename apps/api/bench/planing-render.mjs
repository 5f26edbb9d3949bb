// Code that runs inside the browser page for `npm run bench:daily -- --web` (page.evaluate sends its source):
// plain JavaScript, so the API's TypeScript program needs no DOM types.

/** Stores the session as the login screen does (SPEC §3 storage keys). */
export function setSession({ token, trabajador, empresaId }) {
  localStorage.setItem('token', token)
  localStorage.setItem('trabajador', JSON.stringify(trabajador))
  localStorage.setItem('empresa', JSON.stringify({ id: empresaId, nombre: 'Empresa 1' }))
}

/**
 * Clicks 'Mes siguiente' and times, with the performance API, until the month is painted: its first day's cell
 * holds task chips, nothing is loading, and one more animation frame has run. Also says when the calendar call's
 * answer arrived (resource timing), so the render alone is the rest.
 */
export async function timeMonthSwitch(day) {
  performance.clearResourceTimings()
  performance.mark('mes-siguiente')
  document.querySelector('button[aria-label="Mes siguiente"]').click()
  await new Promise((resolve) => {
    const check = () => {
      const cell = document.querySelector(`td[data-dia="${day}"]`)
      if (cell?.querySelector('.vb-chip') && !document.querySelector('[aria-busy="true"]')) requestAnimationFrame(() => resolve())
      else requestAnimationFrame(check)
    }
    check()
  })
  const total = performance.measure('mes-pintado', 'mes-siguiente').duration
  const start = performance.getEntriesByName('mes-siguiente')[0]?.startTime ?? 0
  const call = performance.getEntriesByType('resource').find((e) => e.name.includes('/api/planing-tareas/calendario'))
  const render = call ? total - (call.responseEnd - start) : Number.NaN
  const tasks = [...document.querySelectorAll('button.vb-more')].reduce(
    (n, b) => n + Number(/ver las (\d+) tareas/.exec(b.getAttribute('aria-label') ?? '')?.[1] ?? 0),
    0,
  )
  const shown = [...document.querySelectorAll('table.vb-calendar td')].reduce(
    (n, td) => n + (td.querySelector('button.vb-more') ? 0 : td.querySelectorAll('.vb-chip').length),
    0,
  )
  performance.clearMarks()
  performance.clearMeasures()
  return { total, render, tasks: tasks + shown, chips: document.querySelectorAll('table.vb-calendar .vb-chip').length }
}
