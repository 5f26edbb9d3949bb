import { createConnection, createServer, type Server, type Socket } from 'node:net'
import type { ConnectionTarget } from '../db/client'

/**
 * A TCP proxy in front of the test database, to play an outage without stopping a server other tests
 * share: `cut()` drops every connection and refuses new ones (PostgreSQL stopped, a failover), `blackHole()`
 * accepts connections but never answers (a network that swallows packets), `restore()` serves again.
 */
export class DatabaseProxy {
  private server: Server | undefined
  private readonly sockets = new Set<Socket>()
  private mode: 'forward' | 'blackhole' = 'forward'
  port = 0

  constructor(private readonly upstream: { host?: string; port?: number; path?: string }) {}

  /** The upstream of a connection target: its TCP host and port, or the embedded server's socket file. */
  static upstreamOf(target: ConnectionTarget): { host?: string; port?: number; path?: string } {
    if (typeof target === 'string') {
      const url = new URL(target)
      return { host: url.hostname || '127.0.0.1', port: Number(url.port || 5432) }
    }
    return target.host.startsWith('/')
      ? { path: `${target.host}/.s.PGSQL.${target.port}` }
      : { host: target.host, port: target.port }
  }

  /** The same target, reached through this proxy. */
  target(target: ConnectionTarget): ConnectionTarget {
    if (typeof target === 'string') {
      const url = new URL(target)
      url.hostname = '127.0.0.1'
      url.port = String(this.port)
      return url.toString()
    }
    return { ...target, host: '127.0.0.1', port: this.port }
  }

  async start(port = 0): Promise<void> {
    const server = createServer((client) => {
      this.sockets.add(client)
      client.on('close', () => this.sockets.delete(client))
      client.on('error', () => {})
      if (this.mode === 'blackhole') return
      const upstream = this.upstream.path
        ? createConnection({ path: this.upstream.path })
        : createConnection({ host: this.upstream.host, port: this.upstream.port as number })
      this.sockets.add(upstream)
      upstream.on('close', () => {
        this.sockets.delete(upstream)
        client.destroy()
      })
      upstream.on('error', () => client.destroy())
      client.on('close', () => upstream.destroy())
      client.pipe(upstream)
      upstream.pipe(client)
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve())
    })
    this.port = (server.address() as { port: number }).port
    this.server = server
  }

  /** Drops every connection and stops listening: connecting is refused until `restore()`. */
  async cut(): Promise<void> {
    const server = this.server
    this.server = undefined
    for (const s of this.sockets) s.destroy()
    this.sockets.clear()
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  /** Connections are accepted and then nothing comes back; existing ones go silent too. */
  blackHole(): void {
    this.mode = 'blackhole'
    for (const s of this.sockets) {
      s.unpipe()
      s.pause()
    }
  }

  /** Serves again, on the same port. */
  async restore(): Promise<void> {
    this.mode = 'forward'
    for (const s of this.sockets) s.destroy()
    this.sockets.clear()
    if (!this.server) await this.start(this.port)
  }

  async close(): Promise<void> {
    await this.cut()
  }
}
