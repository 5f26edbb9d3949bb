import type { TestWorker } from './build-test-app'

export interface SseEvent {
  event: string
  data: string
}

/**
 * A worker's open notification stream on a listening test app (DECISIONS D9), read event by event, as a
 * browser tab holds it.
 */
export async function openNotificationStream(baseUrl: string, worker: TestWorker) {
  const controller = new AbortController()
  const res = await fetch(`${baseUrl}/api/notificaciones/stream`, {
    headers: { authorization: `Bearer ${worker.token}` },
    signal: controller.signal,
  })
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let done = false
  /** The next event (comments and the retry line skipped), or null when the stream ends. */
  async function next(timeoutMs = 5000): Promise<SseEvent | null> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const cut = buffer.indexOf('\n\n')
      if (cut >= 0) {
        const block = buffer.slice(0, cut)
        buffer = buffer.slice(cut + 2)
        const lines = block.split('\n')
        const event = lines.find((l) => l.startsWith('event: '))?.slice(7)
        const data = lines.find((l) => l.startsWith('data: '))?.slice(6)
        if (event && data !== undefined) return { event, data }
        continue
      }
      if (done) return null
      const left = deadline - Date.now()
      if (left <= 0) throw new Error('no event in time')
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no event in time')), left)),
      ])
      if (chunk.done) done = true
      else buffer += decoder.decode(chunk.value, { stream: true })
    }
  }
  return { res, next, close: () => controller.abort() }
}
