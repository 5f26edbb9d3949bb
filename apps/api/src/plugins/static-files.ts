import { existsSync } from 'node:fs'
import path from 'node:path'
import compress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

/** Files under /assets/ carry a content hash in their names: a new build gives them new names. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'
/** index.html and every other file whose name does not change: the browser revalidates it (ETag) on each visit. */
export const REVALIDATE = 'no-cache'
/** API responses over this size are compressed when the client accepts it. */
export const COMPRESS_THRESHOLD = 1024

/**
 * The first visit on a phone: small, cached responses.
 *
 * - API responses over 1 KB go out in brotli or gzip when the client accepts it (`@fastify/compress`). The
 *   notification stream takes over its raw response (`reply.hijack()`), so it is never buffered by a compressor.
 * - The built web app (`webDist`) is served with the brotli and gzip files the build wrote beside each file
 *   (`preCompressed`, with `Vary: Accept-Encoding`); hashed assets are cached for a year, the rest revalidated.
 * - Each file is looked up when it is asked for (`wildcard`), not listed once at start: a new build written in
 *   place under a running server is served at once, its new chunks with its new index.html. Listed at start, the
 *   new index.html went out naming chunks the server had never listed (404), a blank page until a restart.
 *
 * Registered before the routes: the compression hook attaches to routes declared after it.
 * Returns the folder of the web app it serves, or null (then unknown page URLs fall back to its index.html).
 */
export async function registerWebDelivery(app: FastifyInstance, webDist: string | undefined): Promise<string | null> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD,
    // Request bodies stay as they are: nothing sends compressed JSON, and the body limit then means what it says.
    globalDecompression: false,
  })

  if (!webDist || !existsSync(path.join(webDist, 'index.html'))) return null
  const root = path.resolve(webDist)
  await app.register(fastifyStatic, {
    root,
    // A missing file goes on to the not-found handler: a 404 for files, the app's index.html for page URLs.
    wildcard: true,
    // A hidden file (.env, .git) is as if it were not there: @fastify/static sends them by default.
    dotfiles: 'ignore',
    index: ['index.html'],
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, filePath) {
      const relative = path.relative(root, filePath).split(path.sep).join('/')
      reply.header('Cache-Control', relative.startsWith('assets/') ? IMMUTABLE : REVALIDATE)
      // Every file may go out in another encoding (preCompressed): caches must key on Accept-Encoding. Set
      // here because @fastify/static 10.0 (the last release that runs on Node 20) does not add it itself.
      reply.header('Vary', 'Accept-Encoding')
    },
  })
  return root
}
