/**
 * Every line the app's pino logger writes, kept in memory so each answer's lines can be searched for
 * secrets. Pass `logger` to the app; pino writes to a plain object stream synchronously, so the lines
 * taken after an `inject` are the ones that request caused.
 */
export interface LogCapture {
  logger: { level: string; stream: { write(line: string): void } }
  /** The lines written since the last call. */
  take(): string[]
}

export function captureLogs(level = 'trace'): LogCapture {
  let lines: string[] = []
  return {
    logger: { level, stream: { write: (line: string) => void lines.push(line) } },
    take() {
      const taken = lines
      lines = []
      return taken
    },
  }
}

/** What must never be in a log line, whatever the request: the kind of secret and how to see it. */
const leakPatterns: readonly [string, RegExp][] = [
  ['password hash', /scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/_=-]{8,}/],
  ['token', /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/],
  // drizzle's "Failed query: ...\nparams: a,b,c" and the `params` / `parameters` a query error carries.
  ['SQL parameters', /\\nparams: |"params":\s*\[|"parameters":\s*\[/],
]

/**
 * The log lines that carry a secret: a pattern match, or any of `known` (passwords and tokens the
 * fuzzer holds) verbatim. One entry per line, naming what it carries, with an excerpt.
 */
export function leaksIn(lines: readonly string[], known: readonly string[] = []): Leak[] {
  const leaks: Leak[] = []
  const excerpt = (line: string, at: number) => line.slice(Math.max(0, at - 80), at + 60)
  for (const line of lines) {
    const kinds: string[] = []
    let at = 0
    for (const [kind, pattern] of leakPatterns) {
      const match = pattern.exec(line)
      if (match) {
        kinds.push(kind)
        at = match.index
      }
    }
    for (const secret of known) {
      const index = secret.length >= 8 ? line.indexOf(secret) : -1
      if (index >= 0) {
        kinds.push('known password or token')
        at = index
      }
    }
    if (kinds.length > 0) leaks.push({ kind: `log line carries ${kinds.join(' and ')}`, excerpt: excerpt(line, at) })
  }
  return leaks
}

/** One leaking log line: what it carries, and an excerpt around it. */
export interface Leak {
  kind: string
  excerpt: string
}
