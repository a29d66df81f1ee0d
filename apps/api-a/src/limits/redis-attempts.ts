import type { Redis } from 'ioredis'
import type { AttemptOutcome } from '../auth/attempts.js'
import type { OutageLog } from './redis.js'

/**
 * Checks every key's window and counts one attempt on each, atomically: either all keys have budget
 * left and each counts one, or none counts and the longest wait is returned. A key's window starts at
 * its first attempt and lasts `windowMs`.
 * KEYS: the attempt keys; ARGV: max, windowMs. Returns { allowed (1|0), ms until the spent key resets }.
 */
const consumeScript = `
local max = tonumber(ARGV[1])
local wait = 0
for _, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count >= max then
    local ttl = redis.call('PTTL', key)
    if ttl > wait then wait = ttl end
  end
end
if wait > 0 then return {0, wait} end
for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then redis.call('PEXPIRE', key, ARGV[2]) end
end
return {1, 0}
`

/**
 * Counts password attempts in Redis, shared by every replica; `fallback` answers (per process) while
 * Redis is unreachable.
 */
export function redisAttemptCounter(
  redis: Redis,
  outage: OutageLog,
  options: { prefix: string; max: number; windowMs: number; fallback: (keys: readonly string[]) => AttemptOutcome },
) {
  return async (keys: readonly string[]): Promise<AttemptOutcome> => {
    try {
      const [allowed, waitMs] = (await redis.eval(
        consumeScript,
        keys.length,
        ...keys.map((key) => options.prefix + key),
        options.max,
        options.windowMs,
      )) as [number, number]
      outage.succeeded()
      return allowed === 1
        ? { allowed: true }
        : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
    } catch (error) {
      outage.failed(error)
      return options.fallback(keys)
    }
  }
}
