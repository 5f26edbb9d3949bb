import v8 from 'node:v8'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap'

describe('limitHeapGrowth', () => {
  afterEach(() => vi.restoreAllMocks())

  it("sets V8's heap growth to the server's percentage", () => {
    const set = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => {})
    expect(limitHeapGrowth(HEAP_GROWING_PERCENT, ['--enable-source-maps'])).toBe(true)
    expect(set).toHaveBeenCalledWith('--heap-growing-percent=200')
  })

  it('leaves a heap growth node was started with, in either spelling', () => {
    const set = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => {})
    expect(limitHeapGrowth(HEAP_GROWING_PERCENT, ['--heap-growing-percent=50'])).toBe(false)
    expect(limitHeapGrowth(HEAP_GROWING_PERCENT, ['--heap_growing_percent=120'])).toBe(false)
    expect(set).not.toHaveBeenCalled()
  })
})
