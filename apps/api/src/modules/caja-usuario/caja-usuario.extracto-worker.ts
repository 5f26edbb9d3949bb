import type { Readable } from 'node:stream'
import { parentPort, workerData } from 'node:worker_threads'
import { type ExtractoData, extractoStream } from './caja-usuario.extracto-pdf'

/**
 * The worker thread that lays out statement PDFs (caja-usuario.extracto.ts starts it): its own event loop
 * and heap, so a statement's CPU time and garbage collection never hold up the server's requests. Each job
 * `{ id, data }` answers with its PDF's chunks `{ id, chunk }`, then `{ id, end }` or `{ id, error }`;
 * `{ id, cancel }` stops one whose client went away. Several jobs interleave.
 */
const fonts = workerData.fonts as { regular: Uint8Array; bold: Uint8Array }
const running = new Map<number, Readable>()
const port = parentPort as NonNullable<typeof parentPort>

async function render(id: number, data: ExtractoData): Promise<void> {
  try {
    const doc = extractoStream(data, fonts)
    running.set(id, doc)
    for await (const chunk of doc) port.postMessage({ id, chunk: chunk as Buffer })
    port.postMessage({ id, end: true })
  } catch (err) {
    port.postMessage({ id, error: (err as Error).message ?? String(err) })
  } finally {
    running.delete(id)
  }
}

port.on('message', (message: { id: number; data?: ExtractoData; cancel?: boolean }) => {
  if (message.cancel) running.get(message.id)?.destroy()
  else if (message.data) void render(message.id, message.data)
})
