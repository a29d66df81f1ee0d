import type { DatabaseSettings } from './client.js'

/** A word as a shell reads it: quoted unless it is plain. */
const shellWord = (word: string) => (/^[\w.@%+=:,/-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`)

function codesOf(error: unknown): unknown[] {
  const codes: unknown[] = []
  for (let current = error, depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    codes.push((current as { code?: unknown }).code)
    current = (current as { cause?: unknown }).cause
  }
  return codes
}

/**
 * The one line someone starting the server needs when its PostgreSQL database cannot be used, instead of a
 * driver's stack trace: what is wrong and how to fix it. Recognised by SQLSTATE or driver code, never by
 * message text: 3D000 (no such database: the `createdb` command that makes it) and ECONNREFUSED (no server
 * listening). Undefined for every other error, which the caller rethrows.
 *
 * @example
 * startupProblem(error, { kind: 'postgres', url: 'postgres://postgres@localhost:5432/weft_api_a' })
 * // 'database weft_api_a does not exist: create it with `createdb -h localhost -p 5432 -U postgres weft_api_a`'
 */
export function startupProblem(error: unknown, settings: DatabaseSettings): string | undefined {
  if (settings.kind !== 'postgres') return undefined
  const url = new URL(settings.url)
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const port = url.port || '5432'
  const codes = codesOf(error)
  if (codes.includes('3D000')) {
    const name = decodeURIComponent(url.pathname.slice(1))
    const user = url.username ? ` -U ${shellWord(decodeURIComponent(url.username))}` : ''
    const command = `createdb -h ${shellWord(host)} -p ${port}${user} ${shellWord(name)}`
    return `database ${name} does not exist: create it with \`${command}\``
  }
  if (codes.includes('ECONNREFUSED')) {
    return (
      `cannot connect to PostgreSQL at ${host}:${port} (connection refused): start it, ` +
      'or unset DB_* and DATABASE_URL to use the embedded database'
    )
  }
  return undefined
}
