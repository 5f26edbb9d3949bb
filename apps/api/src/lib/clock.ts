/** Injected time source, so tests can fix "today" (GUIDE: Tests). */
export interface Clock {
  now(): Date
}
export const systemClock: Clock = { now: () => new Date() }
