import { createRequire } from 'node:module'
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Redis } from 'ioredis'
import type { OutageLog } from './redis.js'

type Result = { current: number; ttl: number }
type Callback = (error: Error | null, result: Result | null) => void
/** The store interface `@fastify/rate-limit` calls (`store` option): a constructor, then `child` per route. */
interface Store {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void
  read(key: string, callback: Callback, timeWindow: number, max: number): void
  child(routeOptions: unknown): Store
}
interface StoreParams {
  continueExceeding: boolean
  exponentialBackoff: boolean
}

// @fastify/rate-limit ships its Redis and in-memory stores without exporting them: combine those two
// rather than write a third (its Lua script is the atomic increment we need).
const require = createRequire(import.meta.url)
const RedisStore = require('@fastify/rate-limit/store/RedisStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => Store
const LocalStore = require('@fastify/rate-limit/store/LocalStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => Store

/** Asks Redis; when Redis fails, answers from this process's memory (never an error, never a 500). */
function withFallback(remote: Store, local: Store, outage: OutageLog): Store {
  const attempt = (method: 'incr' | 'read') => (key: string, callback: Callback, timeWindow: number, max: number) => {
    remote[method](
      key,
      (error, result) => {
        if (!error && result) {
          outage.succeeded()
          callback(null, result)
          return
        }
        outage.failed(error)
        local[method](key, callback, timeWindow, max)
      },
      timeWindow,
      max,
    )
  }
  return {
    incr: attempt('incr'),
    read: attempt('read'),
    child: (routeOptions) => withFallback(remote.child(routeOptions), local.child(routeOptions), outage),
  }
}

/**
 * A `store` for `@fastify/rate-limit` whose counters live in Redis, so every replica spends one budget;
 * while Redis is unreachable each process counts on its own (the limit still holds per process).
 */
export function sharedRateLimitStore(redis: Redis, outage: OutageLog, prefix: string): FastifyRateLimitStoreCtor {
  function SharedStore(params: StoreParams): Store {
    const remote = new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, prefix)
    const local = new LocalStore(params.continueExceeding, params.exponentialBackoff)
    return withFallback(remote, local, outage)
  }
  // The plugin calls `new SharedStore(params)`: a constructor that returns an object yields that object.
  return SharedStore as unknown as FastifyRateLimitStoreCtor
}
