import type { CtxBase } from './ctx-base.js'
import { InvalidParamError } from './errors.js'

const INTEGER = /^[+-]?\d+$/

function routeParams(c: CtxBase): Record<string, string | undefined> {
  return (c._req.params ?? {}) as Record<string, string | undefined>
}

/** All route parameters; Fastify's wildcard `*` is also listed as `*1`. */
export function allParams(c: CtxBase): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(routeParams(c))) {
    if (value === undefined) continue
    out[key] = value
    if (key === '*') out['*1'] = value
  }
  return out
}

/** One route parameter; `*` and `*1` address the wildcard. */
export function param(c: CtxBase, key: string, def = ''): string {
  const params = routeParams(c)
  const value = params[key] ?? (key === '*1' ? params['*'] : undefined)
  return value === undefined || value === '' ? def : value
}

/** A route parameter as an integer: 0 when missing, a 400 `WEFT_INVALID_PARAM` error when not one. */
export function paramInt(c: CtxBase, key: string): number {
  const value = param(c, key)
  if (value === '') return 0
  if (!INTEGER.test(value)) throw new InvalidParamError(key, value.slice(0, 64))
  const n = Number(value)
  if (!Number.isSafeInteger(n)) throw new InvalidParamError(key, value.slice(0, 64))
  return n
}
