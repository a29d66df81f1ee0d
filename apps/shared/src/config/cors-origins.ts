/** One origin as browsers send it in `Origin`: scheme, host and port only (`https://app.example.com`). */
function origin(entry: string): string | undefined {
  let url: URL
  try {
    url = new URL(entry)
  } catch {
    return undefined
  }
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === ''
  return bare && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : undefined
}

/**
 * Parses `CORS_ORIGINS`: the origins whose pages may call the API from a browser, comma-separated
 * (`https://app.example.com, http://localhost:5173`; a trailing slash is dropped), or `*` alone for any.
 * Empty or unset: none, so CORS stays off. Returns undefined when an entry is not an origin.
 *
 * @example
 * parseCorsOrigins('https://app.example.com/, http://localhost:5173') // ['https://app.example.com', 'http://localhost:5173']
 * parseCorsOrigins('app.example.com') // undefined
 */
export function parseCorsOrigins(raw: string | undefined): string[] | undefined {
  const entries = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  if (entries.length === 1 && entries[0] === '*') return ['*']
  const origins = entries.map(origin)
  return origins.every((value) => value !== undefined) ? origins : undefined
}
