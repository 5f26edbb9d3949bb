import { cleanup, render, screen } from '@testing-library/react'
import { deepestPage } from '@vb/shared/list'
import { afterEach, describe, expect, it } from 'vitest'
import { ListPagination } from './list-pagination'

afterEach(cleanup)

// A disabled item is not a button (react-bootstrap renders it as text): 'next' is offered or it is not.
const nextOffered = () => screen.queryByRole('button', { name: 'Página siguiente' }) !== null

describe('ListPagination past a capped total (DECISIONS D13)', () => {
  const capped = { total: 10_000, exact: false, pageSize: 10, shown: 10, onPage: () => {} }

  it('goes on while pages come back full', () => {
    render(<ListPagination {...capped} page={1_001} />)
    expect(screen.getByText('Mostrando 10001–10010 de más de 10.000')).toBeTruthy()
    expect(nextOffered()).toBe(true)
  })

  it('stops at the deepest page the server answers (a page starts at most 100,000 rows deep)', () => {
    const deepest = deepestPage(10)
    expect(deepest).toBe(10_001)
    render(<ListPagination {...capped} page={deepest - 1} />)
    expect(nextOffered()).toBe(true)
    cleanup()
    render(<ListPagination {...capped} page={deepest} />)
    expect(nextOffered()).toBe(false)
    cleanup()
    // At 100 a page, the same depth is page 1,001.
    expect(deepestPage(100)).toBe(1_001)
    render(<ListPagination {...capped} pageSize={100} shown={100} page={1_001} />)
    expect(nextOffered()).toBe(false)
  })
})
