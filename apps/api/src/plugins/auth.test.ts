import { describe, expect, it } from 'vitest'
import { rememberedTokens } from './auth'

describe('rememberedTokens', () => {
  const counting = (exp?: number) => {
    const calls: string[] = []
    const verify = (token: string) => {
      calls.push(token)
      if (token.startsWith('mal')) throw new Error('firma')
      return { sub: token, tv: 0, ...(exp === undefined ? {} : { exp }) }
    }
    return { calls, verify }
  }

  it('verifies a token once and answers again from memory until it expires', () => {
    let now = 1_000_000
    const { calls, verify } = counting(1_000 + 60) // expires at 1,060,000 ms
    const verified = rememberedTokens(verify, () => now)
    expect(verified('a').sub).toBe('a')
    now += 59_000
    expect(verified('a').sub).toBe('a')
    expect(calls).toEqual(['a'])
    // At its expiry it is verified again (the real verifier then refuses it: modules/auth/auth.test.ts).
    now += 1_000
    verified('a')
    expect(calls).toEqual(['a', 'a'])
  })

  it('remembers for ten minutes at most, and never a failure', () => {
    let now = 0
    const { calls, verify } = counting()
    const verified = rememberedTokens(verify, () => now)
    verified('a')
    now += 10 * 60_000 - 1
    verified('a')
    expect(calls).toEqual(['a'])
    now += 1
    verified('a')
    expect(calls).toEqual(['a', 'a'])
    expect(() => verified('mal')).toThrow('firma')
    expect(() => verified('mal')).toThrow('firma')
    expect(calls).toEqual(['a', 'a', 'mal', 'mal'])
  })

  it('keeps 1,000 tokens at most, forgetting the oldest first', () => {
    const { calls, verify } = counting()
    const verified = rememberedTokens(verify, () => 0)
    for (let i = 0; i <= 1000; i++) verified(`t${i}`)
    calls.length = 0
    verified('t1000')
    verified('t1')
    expect(calls).toEqual([])
    verified('t0')
    expect(calls).toEqual(['t0'])
  })
})
