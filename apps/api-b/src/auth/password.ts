import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'
import { createWorkLimit, type WorkLimit } from './work-limit.js'

const KEY_LENGTH = 32
const SALT_LENGTH = 16
const BLOCK_SIZE = 8
const PARALLELISM = 1

/**
 * Hashes and checks passwords with scrypt (memory-hard, built into Node), a random 16-byte salt per
 * password, and the parameters stored beside the hash (`scrypt$N$r$p$salt$hash`, base64) so the cost
 * can be raised later without invalidating old hashes.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>
  /**
   * True when `password` matches `stored`. With `stored` undefined (unknown user) it does the same
   * scrypt work against a dummy hash and returns false, so the answer takes as long either way.
   */
  verify(password: string, stored: string | undefined): Promise<boolean>
}

/** A key-derivation call: scrypt unless a test substitutes an observer. */
export type Kdf = (password: string, salt: Buffer, options: ScryptOptions, length: number) => Promise<Buffer>

const scryptKdf: Kdf = (password, salt, options, length) => {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

function optionsFor(cost: number, blockSize: number, parallelism: number): ScryptOptions {
  // scrypt needs 128·N·r bytes; allow twice that so Node's default 32 MiB cap does not refuse it.
  return { N: cost, r: blockSize, p: parallelism, maxmem: 256 * cost * blockSize * parallelism }
}

interface ParsedHash {
  options: ScryptOptions
  salt: Buffer
  key: Buffer
}

function parse(stored: string): ParsedHash | undefined {
  const [scheme, n, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return undefined
  return {
    options: optionsFor(Number(n), Number(r), Number(p)),
    salt: Buffer.from(salt, 'base64'),
    key: Buffer.from(key, 'base64'),
  }
}

/** scrypt runs at once (libuv has four threads by default: half stay free for everything else). */
export const SCRYPT_CONCURRENCY = 2
/** scrypt runs that may wait for a slot; more answer 503 rather than queue without bound. */
export const SCRYPT_MAX_WAITING = 64

/**
 * Creates the hasher; `cost` is scrypt's N (a power of two; 32768 uses 32 MiB per hash). `kdf` is
 * scrypt; tests pass a wrapper to observe the work done.
 */
export function createPasswordHasher(
  cost: number,
  unboundedKdf: Kdf = scryptKdf,
  limit: WorkLimit = createWorkLimit(SCRYPT_CONCURRENCY, SCRYPT_MAX_WAITING),
): PasswordHasher {
  // Every run goes through the limit, shared by all routes of the app.
  const kdf: Kdf = (password, salt, scryptOptions, length) =>
    limit.run(() => unboundedKdf(password, salt, scryptOptions, length))
  const options = optionsFor(cost, BLOCK_SIZE, PARALLELISM)
  // Stands in for the hash of a user that does not exist: same parameters as a real one.
  const dummy: ParsedHash = { options, salt: randomBytes(SALT_LENGTH), key: randomBytes(KEY_LENGTH) }

  return {
    async hash(password) {
      const salt = randomBytes(SALT_LENGTH)
      const key = await kdf(password, salt, options, KEY_LENGTH)
      return ['scrypt', cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join('$')
    },
    async verify(password, stored) {
      const parsed = stored === undefined ? undefined : parse(stored)
      const target = parsed ?? dummy
      const key = await kdf(password, target.salt, target.options, target.key.length)
      const equal = timingSafeEqual(key, target.key)
      return parsed !== undefined && equal
    },
  }
}
