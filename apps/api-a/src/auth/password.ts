import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'
import { createWorkLimit, type WorkLimit } from './work-limit.js'

const KEY_LENGTH = 32
const SALT_LENGTH = 16

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  // 128 * N * r bytes of memory, plus headroom: scrypt refuses to run above `maxmem`.
  const maxmem = 256 * (options.N ?? 16384) * (options.r ?? 8) + 1024 * 1024
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  )
}

/**
 * Password hashing with Node's built-in scrypt (memory-hard), a random 16-byte salt per password, and the
 * parameters stored in the hash (`scrypt$N$r$p$salt$key`, base64url) so the cost can be raised later.
 *
 * @example
 * const passwords = createPasswordHasher(32768)
 * const stored = await passwords.hash('correct horse battery staple')
 * await passwords.verify('correct horse battery staple', stored) // true
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>
  /** Constant-time comparison; false for a malformed stored hash. */
  verify(password: string, stored: string): Promise<boolean>
  /**
   * Does the work of one verification against a hash no password matches, so a login for an unknown email
   * takes as long as one for a known email with a wrong password.
   */
  verifyNothing(password: string): Promise<false>
}

/** scrypt runs at once (libuv has four threads by default: half stay free for everything else). */
export const SCRYPT_CONCURRENCY = 2
/** scrypt runs that may wait for a slot; more answer 503 rather than queue without bound. */
export const SCRYPT_MAX_WAITING = 64

/**
 * A hasher whose new hashes use scrypt cost `N` (a power of two), r = 8, p = 1. Every scrypt run goes
 * through `limit`, shared by all routes.
 */
export function createPasswordHasher(
  cost: number,
  limit: WorkLimit = createWorkLimit(SCRYPT_CONCURRENCY, SCRYPT_MAX_WAITING),
): PasswordHasher {
  const options: ScryptOptions = { N: cost, r: 8, p: 1 }
  const bounded = (password: string, salt: Buffer, scryptOptions: ScryptOptions) =>
    limit.run(() => derive(password, salt, scryptOptions))
  const hash = async (password: string) => {
    const salt = randomBytes(SALT_LENGTH)
    const key = await bounded(password, salt, options)
    return ['scrypt', cost, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$')
  }
  const verify = async (password: string, stored: string) => {
    const [scheme, n, r, p, salt, key] = stored.split('$')
    if (scheme !== 'scrypt' || !salt || !key) return false
    const expected = Buffer.from(key, 'base64url')
    const actual = await bounded(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) })
    return actual.length === expected.length && timingSafeEqual(actual, expected)
  }
  // A hash no password matches, made once with the current cost.
  const decoy = hash(randomBytes(32).toString('base64url'))
  const hasher: PasswordHasher = {
    hash,
    verify,
    async verifyNothing(password) {
      await hasher.verify(password, await decoy)
      return false
    },
  }
  return hasher
}
