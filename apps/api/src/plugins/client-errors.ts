import http from 'node:http'
import type { Socket } from 'node:net'
import type { ErrorBody } from '@vb/shared'
import type { FastifyBaseLogger } from 'fastify'

/**
 * What Node refuses before Fastify sees a request (a request line it cannot read, such as raw UTF-8 in the path;
 * headers over its limit; a body that stalls past the request timeout), answered as every other error (DECISIONS
 * A3: JSON with a `code` of the closed set and a Spanish message) and with the security headers of every answer
 * (S6). Fastify's own answer was English, without them. The connection is closed after it, as Node does.
 */
export function clientErrorHandler(securityHeaders: Record<string, string>) {
  const headers = Object.entries(securityHeaders)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  return function onClientError(this: { log: FastifyBaseLogger }, err: NodeJS.ErrnoException, socket: Socket) {
    // A connection the client reset has nobody to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return
    const body: ErrorBody =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? {
            statusCode: 408,
            code: 'VALIDATION_FAILED',
            message: 'La petición tardó demasiado en llegar y se ha cortado. Inténtalo de nuevo.',
          }
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? { statusCode: 431, code: 'PAYLOAD_TOO_LARGE', message: 'Las cabeceras de la petición son demasiado grandes.' }
          : { statusCode: 400, code: 'VALIDATION_FAILED', message: 'La petición no es válida.' }
    this.log.debug({ err }, 'client error')
    if (socket.writable) {
      const text = JSON.stringify(body)
      socket.write(
        `HTTP/1.1 ${body.statusCode} ${http.STATUS_CODES[body.statusCode]}\r\n${headers}Cache-Control: no-store\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
      )
    }
    socket.destroy(err)
  }
}
