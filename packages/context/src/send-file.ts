import { realpath } from 'node:fs/promises'
import { resolve, sep } from 'node:path'
import { createGzip } from 'node:zlib'
import send from '@fastify/send'
import type { CtxBase } from './ctx-base.js'
import {
  FileNotFoundError,
  ForbiddenPathError,
  InvalidPathError,
  PreconditionFailedError,
  RangeNotSatisfiableError,
} from './errors.js'
import { addVary } from './headers.js'
import { negotiate } from './negotiation/accepts.js'
import { acceptEncodingOf } from './negotiation/cache.js'
import { parseRange } from './range.js'

const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|[\w.+-]+\+(?:json|xml))|image\/svg\+xml)/

/**
 * Streams a file under the configured `root` with `@fastify/send`, which refuses `..` (plain or
 * encoded) with 403, answers conditional requests (304/412) and Range requests (206/416), and sets
 * Content-Type from the extension, ETag and Last-Modified. `path` is URL-encoded (`%20`), as
 * Fiber does. With `compress`, a compressible type is gzipped when the client accepts gzip (then
 * Range is not honoured).
 */
export async function sendFile(c: CtxBase, path: string, compress = false): Promise<void> {
  try {
    await sendFileUnder(c, path, compress)
  } catch (error) {
    // the error response must not be offered as a download
    c._res.removeHeader('content-disposition')
    throw error
  }
}

/** Decodes a URL-encoded path; a malformed escape (`%zz`) is the client's 400, not a 500. */
export function decodePath(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    throw new InvalidPathError(path.slice(0, 256))
  }
}

function isInside(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(sep) ? root : root + sep)
}

/**
 * Refuses a path whose real location (symbolic links resolved) is outside the real root:
 * `@fastify/send` only checks the path as written, and would follow a link out of `root`.
 * A path that does not exist is left to `send` (404).
 */
async function checkRealPath(root: string, decoded: string, shown: string): Promise<void> {
  let real: string
  try {
    real = await realpath(resolve(root, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`))
  } catch {
    return
  }
  if (!isInside(await realpath(root), real)) throw new ForbiddenPathError(shown)
}

async function sendFileUnder(c: CtxBase, path: string, compress: boolean): Promise<void> {
  const urlPath = path.startsWith('/') ? path : `/${path}`
  await checkRealPath(c._opts.root, decodePath(urlPath), path.slice(0, 256))
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
    if (status === 412) throw new PreconditionFailedError()
    if (status === 416) unsatisfiable(c, Number(String(result.headers['Content-Range']).split('/')[1]))
    throw result.metadata.error
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

/**
 * `send`'s 416, told apart as `c.range()` tells it: a malformed Range header is the client's 400
 * (`WEFT_RANGE_MALFORMED`), one with no range inside the file a 416 with `Content-Range: bytes *\/size`.
 */
function unsatisfiable(c: CtxBase, size: number): never {
  try {
    parseRange(c._req.headers.range ?? '', size)
  } catch (error) {
    if (!(error instanceof RangeNotSatisfiableError)) throw error
  }
  // Fastify's error handler sets an error's `headers` on the error response
  throw Object.assign(new RangeNotSatisfiableError(size), { headers: { 'content-range': `bytes */${size}` } })
}
