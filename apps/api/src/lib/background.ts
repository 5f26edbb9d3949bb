import type { FastifyBaseLogger } from 'fastify'

/**
 * Work that runs after the answer has gone (a password-reset e-mail: the neutral answer must take the
 * same time whether the e-mail exists or not). Failures are logged; shutdown and tests can wait for it.
 */
export class Background {
  private readonly running = new Set<Promise<void>>()
  constructor(private readonly log: FastifyBaseLogger) {}

  run(name: string, work: () => Promise<void>): void {
    const task = (async () => {
      // Never in the caller's tick: the reply is sent first.
      await new Promise((r) => setImmediate(r))
      await work()
    })()
      .catch((err) => this.log.error({ err }, `background task failed: ${name}`))
      .finally(() => this.running.delete(task))
    this.running.add(task)
  }

  /** Resolves once every task started so far has finished. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running])
  }
}
