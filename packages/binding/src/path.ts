/** Most segments one key may have (`a[b][c]` has 3); deeper keys are rejected, not walked. */
export const maxKeyDepth = 32

/** Highest array index a key may use (`posts[1000][title]`); above it the request is rejected. */
export const maxArrayIndex = 1000

/**
 * Splits a form/query key into its path: `posts[0][title]` → `['posts', '0', 'title']`,
 * `colors[]` → `['colors', '']`, `a.b` → `['a', 'b']`. Returns an error message for unbalanced
 * brackets, empty names and keys deeper than {@link maxKeyDepth}.
 */
export function splitKey(key: string): string[] | string {
  const segments: string[] = []
  let start = 0
  let i = 0
  const length = key.length
  // head: up to the first '[' or '.'
  while (i < length && key[i] !== '[' && key[i] !== '.') {
    if (key[i] === ']') return `unbalanced "]" in key "${key}"`
    i++
  }
  if (i === 0) return `key "${key}" has no name before "${key[0]}"`
  segments.push(key.slice(start, i))
  while (i < length) {
    if (segments.length >= maxKeyDepth) return `key "${key}" is nested deeper than ${maxKeyDepth}`
    const c = key[i]
    if (c === '[') {
      const close = key.indexOf(']', i + 1)
      if (close === -1) return `unbalanced "[" in key "${key}"`
      const segment = key.slice(i + 1, close)
      if (segment.includes('[')) return `unbalanced "[" in key "${key}"`
      segments.push(segment)
      i = close + 1
      if (i < length && key[i] !== '[' && key[i] !== '.') {
        return `unexpected "${key[i]}" after "]" in key "${key}"`
      }
    } else {
      start = i + 1
      i = start
      while (i < length && key[i] !== '[' && key[i] !== '.') {
        if (key[i] === ']') return `unbalanced "]" in key "${key}"`
        i++
      }
      if (i === start) return `empty name after "." in key "${key}"`
      segments.push(key.slice(start, i))
    }
  }
  return segments
}

/** Reads an array index segment: digits only, at most {@link maxArrayIndex}; else `-1`. */
export function arrayIndex(segment: string): number {
  if (segment.length === 0 || segment.length > 4) return -1
  for (let i = 0; i < segment.length; i++) {
    const code = segment.charCodeAt(i)
    if (code < 48 || code > 57) return -1
  }
  const index = Number(segment)
  return index <= maxArrayIndex ? index : -1
}
