import { selfId, sessionAuthorization } from '../session.js'
import type { FuzzRequest, FuzzTarget } from '../target.js'
import { encodeGrowth } from './binary-shapes.js'
import { type BodyType, contentTypes, type GrowthShape, type TextGrowth } from './shapes.js'

/** The text of a shape with `count` repetitions (`{i}` numbered, `{F}` the field). */
export function growText(text: TextGrowth, field: string, count: number): string {
  const units = text.unit.includes('{i}')
    ? Array.from({ length: count }, (_, i) => text.unit.replaceAll('{i}', String(i))).join('')
    : text.unit.repeat(count)
  return (text.head + units + text.middle + text.close.repeat(count) + text.tail).replaceAll('{F}', field)
}

/** The grown input's bytes, as sent (header value, query string or body). */
function grownInput(shape: GrowthShape, count: number): Buffer {
  if (shape.binary) {
    const type = shape.surface.slice('body '.length) as 'msgpack' | 'cbor'
    return encodeGrowth(type, shape.binary, shape.field, count)
  }
  const text = shape.text as TextGrowth
  const pairs = shape.surface === 'query' || shape.surface === 'body form'
  const fields = pairs && text.everyField && shape.route.fields?.length ? shape.route.fields : [shape.field]
  return Buffer.from(fields.map((field) => growText(text, field, count)).join('&'), 'latin1')
}

/**
 * The request carrying the shape at `count` repetitions, and the size of the grown part in bytes. Routes
 * behind auth get a valid token (the session user's where the target has a session, so `:id` is its own
 * and the handler is reached), unless the grown header is `Authorization` itself.
 */
export function grownRequest(
  target: FuzzTarget,
  shape: GrowthShape,
  count: number,
): { request: FuzzRequest; bytes: number } {
  const { route, surface } = shape
  const input = grownInput(shape, count)
  const headers: Record<string, string> = {}
  const token = target.session ? sessionAuthorization : target.authorizations[0]
  if (route.auth && token) headers.authorization = token
  const path = route.path.replace(':id', route.auth && target.session ? selfId : '1')
  const request: FuzzRequest = { method: route.method, url: path, headers }
  if (route.operation) request.operation = route.operation
  if (surface === 'query') request.url = `${path}?${input.toString('latin1')}`
  else if (surface.startsWith('header ')) {
    headers[surface.slice('header '.length)] = input.toString('latin1')
    if (surface === 'header content-type') request.payload = Buffer.from('{}')
  } else {
    headers['content-type'] = contentTypes[surface.slice('body '.length) as BodyType]
    request.payload = input
  }
  return { request, bytes: input.length }
}

/**
 * Repetitions for sizes n, 2n and 4n of the grown part, 4n at most `top` bytes (the fixed part counted):
 * counts k, 2k and 4k, so each size holds twice the units of the one before. The largest k that fits,
 * searched (numbered units and MessagePack records do not grow by a fixed number of bytes).
 */
export function countsFor(bytesAt: (count: number) => number, top: number): number[] {
  let fits = 1
  let over = Math.max(2, Math.floor(top / 4) + 1) // each unit adds a byte at least
  while (over - fits > 1) {
    const k = Math.floor((fits + over) / 2)
    if (bytesAt(4 * k) <= top) fits = k
    else over = k
  }
  return [fits, 2 * fits, 4 * fits]
}
