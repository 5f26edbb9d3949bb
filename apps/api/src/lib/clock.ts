/** Injected time source, so tests can fix "today" (docs/architecture.md, tests). */
export interface Clock {
  now(): Date
}
export const systemClock: Clock = { now: () => new Date() }
