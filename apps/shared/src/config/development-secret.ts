import { randomBytes } from 'node:crypto'

/**
 * `pnpm install && pnpm start` (or `pnpm start:b`) must work on a fresh clone with no settings at all. Outside production a
 * missing `SECRET` is replaced by a random one that lives only as long as this process (tokens end with
 * it). In production (`NODE_ENV=production`, as in the container) a missing `SECRET` still refuses to
 * start, and a `SECRET` that is set but shorter than 32 bytes is refused everywhere.
 *
 * @returns true when a secret was generated (the caller warns about it).
 */
export function ensureDevelopmentSecret(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.SECRET || env.NODE_ENV === 'production') return false
  env.SECRET = randomBytes(48).toString('base64url')
  return true
}

export const DEVELOPMENT_SECRET_WARNING =
  'SECRET is not set: using a random secret for this process only, so tokens end when it stops. ' +
  'Set SECRET (at least 32 bytes) in .env; with NODE_ENV=production the server refuses to start without it.'
