import type {} from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/** What one limiter of `@fastify/rate-limit`'s `createRateLimit` reports about a request it counted. */
interface Count {
  max: number
  remaining: number
  ttl: number
  ttlInSeconds: number
  isExceeded: boolean
}

/** The budget that tells a client the most: a spent one (the longest wait), else the one with the least left. */
function tightest(counts: Count[]): Count {
  return counts.reduce((a, b) => {
    if (a.isExceeded !== b.isExceeded) return a.isExceeded ? a : b
    if (a.isExceeded) return a.ttl >= b.ttl ? a : b
    return a.remaining < b.remaining || (a.remaining === b.remaining && a.ttl >= b.ttl) ? a : b
  })
}

/**
 * The throttle of account changes (`PATCH /api/users/:id`, API B's `PATCH /api/user/:id`): every change the server is about to make counts
 * once against the caller's address and once against the account, `max` per `timeWindow` each, in
 * `@fastify/rate-limit`'s store (API A's Redis with `REDIS_URL`). Without it, changing the username would tell, at any
 * speed, which names are taken (409) and which are free (200): the account-enumeration oracle registration
 * closes with its own limit. Answers as registration does: `x-ratelimit-limit`, `-remaining` and `-reset` on
 * every counted answer, and over budget the app's 429 `RATE_LIMITED` (`exceeded`) with `Retry-After`.
 * Hand-written over two `createRateLimit` counters: the plugin's route hook counts one key per request.
 *
 * @example
 * const changes = accountChangeLimit(app, { max: 10, timeWindow: 60_000 }, (s) => rateLimited(messages.tooManyRequests(s), s))
 * await changes.consume(request, reply, userId) // before any uniqueness check
 */
export function accountChangeLimit(
  app: FastifyInstance,
  limit: { max: number; timeWindow: number },
  exceeded: (seconds: number) => Error,
) {
  const accounts = new WeakMap<FastifyRequest, number>()
  const perAddress = app.createRateLimit(limit)
  const perAccount = app.createRateLimit({ ...limit, keyGenerator: (request) => `account:${accounts.get(request)}` })
  return {
    async consume(request: FastifyRequest, reply: FastifyReply, accountId: number): Promise<void> {
      accounts.set(request, accountId)
      const counts: Count[] = []
      for (const result of await Promise.all([perAddress(request), perAccount(request)])) {
        if (!result.isAllowed) counts.push(result)
      }
      if (counts.length === 0) return
      const shown = tightest(counts)
      reply.header('x-ratelimit-limit', shown.max)
      reply.header('x-ratelimit-remaining', shown.isExceeded ? 0 : shown.remaining)
      reply.header('x-ratelimit-reset', shown.ttlInSeconds)
      if (shown.isExceeded) {
        throw exceeded(Math.max(1, shown.ttlInSeconds))
      }
    },
  }
}
