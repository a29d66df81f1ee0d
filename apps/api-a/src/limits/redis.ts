import type { FastifyBaseLogger } from 'fastify'
import { Redis } from 'ioredis'

/**
 * The Redis connection that several replicas share their rate limits through (`REDIS_URL`).
 *
 * Tuned to fail fast, because a limit check sits on the request path: no offline queue (a command
 * while disconnected fails at once instead of waiting for a reconnect), a short command timeout, and
 * reconnection in the background. Callers fall back to this process's memory when a command fails.
 */
export function connectRedis(url: string, log: FastifyBaseLogger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  })
  // Connection errors are reported by the outage log of the limits that use it; never crash on them.
  redis.on('error', () => {})
  redis.on('ready', () => log.info('rate limits shared through Redis'))
  return redis
}

/**
 * Logs a Redis outage once when it begins (loudly: limits are per process until it ends) and once when
 * it is over, instead of once per request.
 */
export function outageLog(log: FastifyBaseLogger) {
  let down = false
  return {
    failed(error: unknown) {
      if (down) return
      down = true
      const reason = error instanceof Error ? error.message : String(error)
      log.error(`Redis unreachable (${reason}): rate limits fall back to this process's memory until it is back`)
    },
    succeeded() {
      if (!down) return
      down = false
      log.warn('Redis reachable again: rate limits are shared again')
    },
  }
}

export type OutageLog = ReturnType<typeof outageLog>
