import { screenList } from './screens'

/**
 * DECISIONS D14: the page title is the screen's Spanish name with its accents (SPEC §2.2 named it after the
 * first path segment; that rule remains for paths not listed here). The default is 'Inicio'.
 */
const TITLES: Record<string, string> = Object.fromEntries(
  screenList.map((s) => [s.path.split('/')[1] ?? '', s.title] as const).filter(([segment]) => segment !== ''),
)

export function pageTitle(pathname: string): string {
  const first = pathname.split('/').find((part) => part !== '')
  if (!first) return 'Inicio'
  let segment = first
  try {
    segment = decodeURIComponent(first)
  } catch {
    // A malformed escape keeps the raw segment.
  }
  return TITLES[segment] ?? segment.charAt(0).toUpperCase() + segment.slice(1)
}
