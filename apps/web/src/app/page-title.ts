/** SPEC §2.2: the page title is the first path segment, capitalised; the default is 'Inicio'. */
export function pageTitle(pathname: string): string {
  const first = pathname.split('/').find((s) => s !== '')
  if (!first) return 'Inicio'
  let segment = first
  try {
    segment = decodeURIComponent(first)
  } catch {
    // A malformed escape keeps the raw segment.
  }
  return segment.charAt(0).toUpperCase() + segment.slice(1)
}
