import { deepestPage } from '@vb/shared/list-core'
import { Pagination } from 'react-bootstrap'

/** Page numbers to show: the first, the last and the current one with its neighbours; null marks a gap. */
export function pageWindow(current: number, last: number): Array<number | null> {
  const wanted = new Set([1, last, current - 1, current, current + 1].filter((p) => p >= 1 && p <= last))
  const pages = [...wanted].sort((a, b) => a - b)
  const out: Array<number | null> = []
  for (const p of pages) {
    const prev = out[out.length - 1]
    if (typeof prev === 'number' && p - prev === 2) out.push(p - 1)
    else if (typeof prev === 'number' && p - prev > 2) out.push(null)
    out.push(p)
  }
  return out
}

/** DECISIONS D13: what the pager says when the server stopped counting. */
export const MAS_DE_10000 = 'Más de 10.000'

interface ListPaginationProps {
  page: number
  pageSize: number
  total: number
  /** False when the total was capped (D13): the last page is unknown and paging goes on. */
  exact?: boolean
  /** Rows on the page shown. */
  shown: number
  onPage: (page: number) => void
}

/** SPEC §2.3: numbered pagination with previous and next, and how many rows there are. */
export function ListPagination({ page, pageSize, total, exact = true, shown, onPage }: ListPaginationProps) {
  const counted = Math.max(1, Math.ceil(total / pageSize))
  // Past a capped total the list goes on while pages come back full, up to the deepest page the server answers (D13).
  const last = Math.min(deepestPage(pageSize), exact ? counted : Math.max(counted, shown === pageSize ? page + 1 : page))
  const from = shown === 0 ? 0 : (page - 1) * pageSize + 1
  const to = from === 0 ? 0 : from + shown - 1
  const windowPages = pageWindow(page, last)
  if (!exact && windowPages.at(-1) === last && last > page) windowPages.splice(-1, 1, null)
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mt-3">
      <p className="text-body-secondary small mb-0" aria-live="polite">
        Mostrando {from}–{to} de {exact ? total : MAS_DE_10000.toLowerCase()}
      </p>
      {last > 1 && (
        <nav aria-label="Paginación">
          <Pagination className="mb-0">
            <Pagination.Item as="button" type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
              <span aria-hidden="true">
                ‹<span className="d-none d-sm-inline"> Anterior</span>
              </span>
              <span className="visually-hidden">Página anterior</span>
            </Pagination.Item>
            {windowPages.map((p, i) =>
              p === null ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own
                <Pagination.Item key={`gap-${i}`} disabled aria-hidden="true">
                  …
                </Pagination.Item>
              ) : (
                <Pagination.Item
                  key={p}
                  as="button"
                  type="button"
                  active={p === page}
                  activeLabel=""
                  aria-current={p === page ? 'page' : undefined}
                  onClick={() => onPage(p)}
                >
                  <span className="visually-hidden">Página </span>
                  {p}
                </Pagination.Item>
              ),
            )}
            <Pagination.Item as="button" type="button" disabled={page >= last} onClick={() => onPage(page + 1)}>
              <span aria-hidden="true">
                <span className="d-none d-sm-inline">Siguiente </span>›
              </span>
              <span className="visually-hidden">Página siguiente</span>
            </Pagination.Item>
          </Pagination>
        </nav>
      )}
    </div>
  )
}
