import type { FastifyBaseLogger } from 'fastify'

/** Closes one value: `[Symbol.asyncDispose]()` first, else `close()`. */
async function closeValue(value: unknown): Promise<void> {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return
  const v = value as { close?: () => unknown; [Symbol.asyncDispose]?: () => unknown }
  const dispose = Symbol.asyncDispose === undefined ? undefined : v[Symbol.asyncDispose]
  if (typeof dispose === 'function') await dispose.call(v)
  else if (typeof v.close === 'function') await v.close()
}

/**
 * Closes every closable value of a request's locals and empties them. Failures are logged, never
 * thrown: the response is already gone.
 */
export async function closeLocals(locals: Map<string, unknown>, log: FastifyBaseLogger): Promise<void> {
  const values = [...locals.values()]
  locals.clear()
  for (const value of values) {
    try {
      await closeValue(value)
    } catch (error) {
      log.error({ err: error }, 'closing a request local failed')
    }
  }
}
