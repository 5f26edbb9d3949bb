import { randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { promisify } from 'node:util'

const scryptRaw = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>

/**
 * Hashes running at once, at most one per core. Each takes 32 MB (128·N·r) and ~70 ms of CPU: more at once only
 * share the same cores while each holds its memory (10 logins together took the API from 250 to 380 MB RSS in
 * bench:all), and they would fill libuv's 4 threads that file reads also need. Waiting here costs no throughput.
 */
export const MAX_HASHES_AT_ONCE = Math.max(1, Math.min(4, availableParallelism()))
let hashing = 0
const waiting: Array<() => void> = []
/** How many hashes are running now (tests). */
export const hashesRunning = () => hashing

async function scrypt(pw: string, salt: Buffer, len: number, opts: object): Promise<Buffer> {
  while (hashing >= MAX_HASHES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve))
  hashing++
  try {
    return await scryptRaw(pw, salt, len, opts)
  } finally {
    hashing--
    waiting.shift()?.()
  }
}

/** DECISIONS S1: scrypt (N=2^15, r=8, p=1), stored as `scrypt$N$r$p$salt$hash` (base64). */
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }
const KEYLEN = 64

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = await scrypt(password, salt, KEYLEN, PARAMS)
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${hash.toString('base64')}`
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, saltB64, hashB64] = stored.split('$')
  if (alg !== 'scrypt' || !saltB64 || !hashB64) return false
  const expected = Buffer.from(hashB64, 'base64')
  const actual = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  })
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** A hash nobody's password matches, so an unknown e-mail costs as much as a wrong password. */
let dummyHash: Promise<string> | undefined
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(12).toString('base64'))
  return dummyHash
}

/** DECISIONS S1: a random temporary password that satisfies the password rule (SPEC §5). */
export function generateTemporaryPassword(): string {
  const upper = 'ABCDEFGHJKLMNPQRSTUVWXYZ'
  const lower = 'abcdefghijkmnpqrstuvwxyz'
  const digits = '23456789'
  const all = upper + lower + digits
  const chars = [upper[randomInt(upper.length)], digits[randomInt(digits.length)], lower[randomInt(lower.length)]]
  while (chars.length < 12) chars.push(all[randomInt(all.length)])
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    ;[chars[i], chars[j]] = [chars[j], chars[i]]
  }
  return chars.join('')
}
