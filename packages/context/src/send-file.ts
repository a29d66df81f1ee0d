import { createGzip } from 'node:zlib'
import send from '@fastify/send'
import type { CtxBase } from './ctx-base.js'
import { FileNotFoundError, ForbiddenPathError } from './errors.js'
import { addVary } from './headers.js'
import { negotiate } from './negotiation/accepts.js'
import { acceptEncodingOf } from './negotiation/cache.js'

const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|[\w.+-]+\+(?:json|xml))|image\/svg\+xml)/

/**
 * Streams a file under the configured `root` with `@fastify/send`, which refuses `..` (plain or
 * encoded) with 403, answers conditional requests (304/412) and Range requests (206/416), and sets
 * Content-Type from the extension, ETag and Last-Modified. `path` is URL-encoded (`%20`), as the
 * seed asks. With `compress`, a compressible type is gzipped when the client accepts gzip (then
 * Range is not honoured).
 */
export async function sendFile(c: CtxBase, path: string, compress = false): Promise<void> {
  const urlPath = path.startsWith('/') ? path : `/${path}`
  const wantsGzip =
    compress && !c._req.headers.range && negotiate('encoding', acceptEncodingOf(c), ['gzip', 'identity']) === 'gzip'
  const result = await send(c._req.raw, urlPath, {
    root: c._opts.root,
    index: false,
    dotfiles: 'ignore',
    acceptRanges: !wantsGzip,
    cacheControl: false,
  })
  if (result.type === 'error') {
    const status = (result.metadata.error as { status?: number }).status ?? 500
    if (status === 403 || status === 400) throw new ForbiddenPathError(path.slice(0, 256))
    if (status === 404) throw new FileNotFoundError(path.slice(0, 256))
  }
  if (result.type === 'directory') {
    result.stream.destroy()
    throw new FileNotFoundError(path.slice(0, 256))
  }
  const reply = c._res
  for (const [name, value] of Object.entries(result.headers)) {
    if (reply.getHeader(name) === undefined || name !== 'content-type') reply.header(name, value)
  }
  reply.code(result.statusCode)
  const type = String(reply.getHeader('content-type') ?? '')
  if (wantsGzip && result.statusCode === 200 && COMPRESSIBLE.test(type)) {
    reply.removeHeader('content-length')
    reply.header('content-encoding', 'gzip')
    addVary(c, ['Accept-Encoding'])
    c._body = result.stream.pipe(createGzip())
    return
  }
  c._body = result.stream
}
