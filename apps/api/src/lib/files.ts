import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import path from 'node:path'
import type { Clock } from './clock'

/** DECISIONS S5: a signed link works for a few minutes. */
export const LINK_TTL_SECONDS = 5 * 60

/** How a signed link serves the file: inline (PDF and images: <a>, <img>) or as a download. */
export type LinkMode = 'ver' | 'descargar'

export interface SignedLink {
  url: string
  /** ISO instant after which the link answers 403. */
  caduca: string
}

/**
 * Where uploaded files live (DATA_DIR/uploads, or UPLOADS_DIR shared by several processes) and the signed
 * links that read them back (DECISIONS S5, S2: no bearer token in a URL). A link names the upload, the
 * worker it was made for, the mode and its expiry, with an HMAC-SHA256 over them under a key derived from
 * the JWT secret; serving it checks the signature and the expiry, then that this worker still sees the
 * upload (the record it is attached to may have gone, or the worker may have left the company).
 */
export class FileStore {
  private readonly key: Buffer

  constructor(
    readonly dir: string,
    secret: string,
    private readonly clock: Clock,
  ) {
    // A key of its own: a link's signature never doubles as anything the JWT secret signs.
    this.key = createHmac('sha256', secret).update('viviendas-backoffice:enlaces-de-archivos:v1').digest()
  }

  /** The stored file of an upload: its id is the file name (random; never a name a client chose). */
  pathOf(id: string): string {
    return path.join(this.dir, id)
  }

  /** A temporary name in the same folder (so the final rename is atomic), never served. */
  tempPath(): string {
    return path.join(this.dir, `.subida-${randomBytes(12).toString('hex')}.part`)
  }

  private signature(id: string, trabajadorId: number, mode: LinkMode, expires: number): string {
    return createHmac('sha256', this.key).update(`${id}\n${trabajadorId}\n${mode}\n${expires}`).digest('base64url')
  }

  sign(id: string, trabajadorId: number, mode: LinkMode): SignedLink {
    const expires = Math.floor(this.clock.now().getTime() / 1000) + LINK_TTL_SECONDS
    const query = new URLSearchParams({
      t: String(trabajadorId),
      m: mode,
      e: String(expires),
      s: this.signature(id, trabajadorId, mode, expires),
    })
    return { url: `/api/uploads/${id}/contenido?${query}`, caduca: new Date(expires * 1000).toISOString() }
  }

  /** The worker and mode of a valid, unexpired link, or null. */
  verify(id: string, query: { t?: string; m?: string; e?: string; s?: string }): { trabajadorId: number; mode: LinkMode } | null {
    const { t, m, e, s } = query
    if (!t || !m || !e || !s || !/^\d{1,10}$/.test(t) || !/^\d{1,12}$/.test(e)) return null
    if (m !== 'ver' && m !== 'descargar') return null
    const expected = Buffer.from(this.signature(id, Number(t), m, Number(e)))
    const given = Buffer.from(s)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
    if (Number(e) * 1000 < this.clock.now().getTime()) return null
    return { trabajadorId: Number(t), mode: m }
  }
}

/**
 * A file name safe for Content-Disposition (DECISIONS S5): no path, no control characters, no quotes or
 * backslashes, at most 150 characters; an ASCII fallback beside the UTF-8 name (RFC 6266 / 5987).
 */
export function contentDisposition(mode: LinkMode, name: string): string {
  const base = name.split(/[/\\]/).pop() ?? ''
  const clean =
    base
      .normalize('NFC')
      .replace(/[\p{Cc}\p{Cf}"\\;]/gu, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 150) || 'archivo'
  const ascii =
    clean
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .replace(/[^\x20-\x7e]/g, '_') || 'archivo'
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `${mode === 'ver' ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
