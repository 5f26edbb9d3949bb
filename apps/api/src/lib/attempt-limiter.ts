/**
 * DECISIONS S3: counts failed logins per key (e-mail, address) in a sliding window. A success clears
 * the e-mail's count. In memory: with several API processes each keeps its own count, which still
 * bounds guessing to (processes × max) per window.
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>()
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs
    const list = (this.failures.get(key) ?? []).filter((t) => t > since)
    if (list.length) this.failures.set(key, list)
    else this.failures.delete(key)
    return list
  }

  isBlocked(key: string): boolean {
    return this.recent(key).length >= this.max
  }

  fail(key: string): void {
    const list = this.recent(key)
    list.push(this.now())
    this.failures.set(key, list)
    if (this.failures.size > 100_000) this.failures.delete(this.failures.keys().next().value as string)
  }

  reset(key: string): void {
    this.failures.delete(key)
  }
}
