import { addDays, madridDay, madridStartOfDay } from '@vb/shared'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from './clock'

/** Minutes after Madrid midnight at which the daily work runs. */
export const DAILY_AT_MINUTES = 5

/** Milliseconds from `now` until the next 00:05 in Europe/Madrid. */
export function untilNextRun(now: Date): number {
  const today = madridStartOfDay(madridDay(now)).getTime() + DAILY_AT_MINUTES * 60_000
  const next = today > now.getTime() ? today : madridStartOfDay(addDays(madridDay(now), 1)).getTime() + DAILY_AT_MINUTES * 60_000
  return next - now.getTime()
}

/**
 * Runs `work` every day at 00:05 Europe/Madrid (DECISIONS D3: the daily PIR check), in this process. Each
 * API process has its own timer; what the work does must be safe to repeat (the PIR notifications are
 * deduplicated by the database). A failure is logged and the next day runs as usual.
 */
export function scheduleDaily(work: () => Promise<unknown>, clock: Clock, log: FastifyBaseLogger): { stop(): void } {
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const arm = () => {
    if (stopped) return
    timer = setTimeout(() => {
      work()
        .catch((err) => log.error({ err }, 'daily work failed'))
        .finally(arm)
    }, untilNextRun(clock.now()))
    timer.unref()
  }
  arm()
  return {
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
    },
  }
}
