import { act, cleanup, render } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useShownData } from './use-shown-data'

afterEach(cleanup)

interface Page {
  items: string[]
}

type Seen = { shown: Page | undefined; catchingUp: boolean }
const seen: Seen[] = []
beforeEach(() => {
  seen.length = 0
})

function Probe({ arrived }: { arrived: Page | undefined }) {
  seen.push(useShownData(arrived))
  return null
}

describe('useShownData', () => {
  it('shows a new answer in a render after the one that received it, and says it is catching up in between', async () => {
    const first = { items: ['a'] }
    const second = { items: ['b'] }
    const view = render(<Probe arrived={undefined} />)
    expect(seen).toEqual([{ shown: undefined, catchingUp: false }])

    await act(async () => view.rerender(<Probe arrived={first} />))
    expect(seen.slice(1)).toEqual([
      { shown: undefined, catchingUp: true },
      { shown: first, catchingUp: false },
    ])

    seen.length = 0
    await act(async () => view.rerender(<Probe arrived={second} />))
    expect(seen[0]).toEqual({ shown: first, catchingUp: true })
    expect(seen.at(-1)).toEqual({ shown: second, catchingUp: false })
  })

  it('shows at once what it has on its first render', () => {
    const first = { items: ['a'] }
    render(<Probe arrived={first} />)
    expect(seen).toEqual([{ shown: first, catchingUp: false }])
  })
})
