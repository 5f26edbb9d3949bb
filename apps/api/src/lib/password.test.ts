import { describe, expect, it } from 'vitest'
import { hashesRunning, hashPassword, MAX_HASHES_AT_ONCE, verifyPassword } from './password'

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('Correcta123')
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/)
    expect(await verifyPassword('Correcta123', stored)).toBe(true)
    expect(await verifyPassword('Incorrecta123', stored)).toBe(false)
  })

  it(`runs at most ${MAX_HASHES_AT_ONCE} hashes at once (32 MB each), and every one of a burst still answers`, async () => {
    const stored = await hashPassword('Correcta123')
    let peak = 0
    const sampler = setInterval(() => {
      peak = Math.max(peak, hashesRunning())
    }, 1)
    const burst = Array.from({ length: 12 }, (_, i) => verifyPassword(i % 2 ? 'Correcta123' : 'Otra12345', stored))
    const results = await Promise.all(burst)
    clearInterval(sampler)
    expect(results).toEqual(Array.from({ length: 12 }, (_, i) => i % 2 === 1))
    expect(peak).toBeGreaterThan(0)
    expect(peak).toBeLessThanOrEqual(MAX_HASHES_AT_ONCE)
    expect(hashesRunning()).toBe(0)
  })
})
