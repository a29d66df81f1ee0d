import { messages, rateLimited } from '../http/errors.js'

/**
 * The budget of password checks: every endpoint that verifies a password (login, PATCH or DELETE with
 * `current_password`) counts one attempt against the caller's IP and against the account, in one shared
 * store, so guessing through PATCH spends the same budget as guessing through login, and spreading the
 * guesses over many addresses still stops at the account's budget.
 */
export interface PasswordAttempts {
  /** Counts one attempt for each key, or throws 429 RATE_LIMITED (counting nothing) when a key is spent. */
  consume(keys: readonly string[]): Promise<void>
}

/** The outcome of one check: allowed, or refused with the seconds until a key has budget again. */
export type AttemptOutcome = { allowed: true } | { allowed: false; retryAfterSeconds: number }

/** Counts the attempts of a set of keys somewhere (memory, Redis) and says whether they were allowed. */
export type AttemptCounter = (keys: readonly string[]) => AttemptOutcome | Promise<AttemptOutcome>

interface Window {
  count: number
  resetAt: number
}

/** Entries kept before expired windows are swept (a bound on memory under a spray of new keys). */
const SWEEP_AT = 10_000

/** The budget over a counter: a refused check is a 429 with the wait in `Retry-After`. */
export function createPasswordAttempts(counter: AttemptCounter): PasswordAttempts {
  return {
    async consume(keys) {
      const outcome = await counter(keys)
      if (outcome.allowed) return
      const seconds = outcome.retryAfterSeconds
      throw rateLimited(messages.tooManyPasswordAttempts(seconds), seconds)
    },
  }
}

/** A fixed-window counter per key, in this process's memory: `max` attempts per key per `windowMs`. */
export function memoryAttemptCounter(
  max: number,
  windowMs: number,
  now = Date.now,
): (keys: readonly string[]) => AttemptOutcome {
  const windows = new Map<string, Window>()
  const sweep = (at: number) => {
    for (const [key, window] of windows) if (window.resetAt <= at) windows.delete(key)
  }
  return (keys) => {
    const at = now()
    if (windows.size > SWEEP_AT) sweep(at)
    const current = keys.map((key) => {
      const window = windows.get(key)
      return window && window.resetAt > at ? window : undefined
    })
    const spent = current.filter((window) => window !== undefined && window.count >= max)
    if (spent.length > 0) {
      const seconds = Math.max(1, Math.ceil((Math.max(...spent.map((w) => w?.resetAt ?? at)) - at) / 1000))
      return { allowed: false, retryAfterSeconds: seconds }
    }
    keys.forEach((key, index) => {
      const window = current[index]
      if (window) window.count++
      else windows.set(key, { count: 1, resetAt: at + windowMs })
    })
    return { allowed: true }
  }
}

/** The attempt keys of a request: its client address and the account (by id, or by login name when unknown). */
export const attemptKeys = (ip: string, account: string) => [`ip:${ip}`, `account:${account}`]
