import { cleanup, renderHook } from '@testing-library/react'
import { deepestPage } from '@vb/shared/list'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { useListState } from './use-list-state'

afterEach(cleanup)

const pageOf = (address: string) => {
  const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[address]}>{children}</MemoryRouter>
  return renderHook(() => useListState(), { wrapper }).result.current.params.page
}

describe("useListState: the URL's page (DECISIONS D13)", () => {
  it('keeps a page the server answers, as deep as it goes at each page size', () => {
    expect(deepestPage(10)).toBe(10_001)
    expect(pageOf('/usuarios?page=7')).toBe(7)
    expect(pageOf('/usuarios?page=10001')).toBe(10_001)
    expect(pageOf('/usuarios?page=1001&pageSize=100')).toBe(1_001)
  })

  it('reads a deeper one as page 1, as any bad page, so a kept link opens the list rather than an error', () => {
    expect(pageOf('/usuarios?page=10002')).toBe(1)
    expect(pageOf('/usuarios?page=1002&pageSize=100')).toBe(1)
    expect(pageOf('/usuarios?page=0')).toBe(1)
  })
})
