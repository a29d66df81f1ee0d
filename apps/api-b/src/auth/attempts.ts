import { messages, rateLimited } from '../http/errors.js'

/**
 * The budget of password checks: every endpoint that verifies a password (login, PATCH or DELETE with
 * `current_password`) counts one attempt against the caller's IP and against the account, in one shared
 * store, so guessing through PATCH spends the login budget, and spreading guesses over many addresses still
 * stops at the account's budget.
 */
export interface PasswordAttempts {
  /** Counts one attempt for each key, or throws 429 RATE_LIMITED (counting nothing) when a key is spent. */
  consume(keys: readonly string[]): void
}

interface Window {
  count: number
  resetAt: number
}

/** Entries kept before expired windows are swept (a bound on memory under a spray of new keys). */
const SWEEP_AT = 10_000

/** A fixed-window counter per key, in memory: `max` attempts per key per `windowMs`. */
export function createPasswordAttempts(max: number, windowMs: number, now = Date.now): PasswordAttempts {
  const windows = new Map<string, Window>()
  return {
    consume(keys) {
      const at = now()
      if (windows.size > SWEEP_AT) {
        for (const [key, window] of windows) if (window.resetAt <= at) windows.delete(key)
      }
      const current = keys.map((key) => {
        const window = windows.get(key)
        return window && window.resetAt > at ? window : undefined
      })
      const spent = current.filter((window): window is Window => window !== undefined && window.count >= max)
      if (spent.length > 0) {
        const retryAfter = Math.max(1, Math.ceil((Math.max(...spent.map((w) => w.resetAt)) - at) / 1000))
        throw rateLimited(messages.tooManyPasswordAttempts(retryAfter), retryAfter)
      }
      for (const [index, key] of keys.entries()) {
        const window = current[index]
        if (window) window.count++
        else windows.set(key, { count: 1, resetAt: at + windowMs })
      }
    },
  }
}

/** The attempt keys of a request: its client address and the account (by id, or by name when unknown). */
export const attemptKeys = (ip: string, account: string) => [`ip:${ip}`, `account:${account}`]
