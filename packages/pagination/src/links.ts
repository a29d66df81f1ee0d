function decodeKey(raw: string): string {
  const plus = raw.includes('+')
  if (!plus && !raw.includes('%')) return raw
  const text = plus ? raw.replaceAll('+', ' ') : raw
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** A URL split for `rewriteQuery`: the query's raw `parts` and their decoded `names`, side by side. */
interface SplitURL {
  readonly path: string
  readonly parts: readonly string[]
  readonly names: readonly string[]
  readonly fragment: string
}

const noParts: readonly string[] = Object.freeze([])

function splitURL(base: string): SplitURL {
  const hash = base.indexOf('#')
  const fragment = hash === -1 ? '' : base.slice(hash)
  const withoutFragment = hash === -1 ? base : base.slice(0, hash)
  const question = withoutFragment.indexOf('?')
  const path = question === -1 ? withoutFragment : withoutFragment.slice(0, question)
  if (question === -1) return { path, parts: noParts, names: noParts, fragment }
  const pieces = withoutFragment.slice(question + 1).split('&')
  // Lists of their own length (arrays pushed to from empty reserve room for 17: bench/RESULTS.md);
  // an empty piece (`a=1&&b=2`, a trailing `&`) is dropped.
  const parts = pieces.includes('') ? pieces.filter((part) => part !== '') : pieces
  const names = parts.slice()
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string
    const equals = part.indexOf('=')
    names[i] = decodeKey(equals === -1 ? part : part.slice(0, equals))
  }
  return { path, parts, names, fragment }
}

// The last URL split: a handler builds its next and previous links from the same base one after the
// other, so the second link reuses the first one's work (strings are immutable: a safe key).
let lastBase: string | undefined
let lastSplit: SplitURL | undefined

function cachedSplit(base: string): SplitURL {
  if (base !== lastBase || lastSplit === undefined) {
    lastSplit = splitURL(base)
    lastBase = base
  }
  return lastSplit
}

/**
 * `encodeURIComponent(text)`, returning `text` itself when it has only characters that function
 * leaves alone (page numbers and key names, nearly always): the links of every page go through here.
 */
function encodeComponent(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const plain =
      (code >= 97 && code <= 122) ||
      (code >= 65 && code <= 90) ||
      (code >= 48 && code <= 57) ||
      code === 45 ||
      code === 95
    if (!plain) return encodeURIComponent(text)
  }
  return text
}

/** Index of the first entry of `set` named `name`, or -1. */
function indexIn(set: readonly (readonly [string, string])[], name: string): number {
  for (let i = 0; i < set.length; i++) if ((set[i] as readonly [string, string])[0] === name) return i
  return -1
}

/**
 * Rewrites a URL's query by hand (not `new URL`, which would resolve relative bases and insert a
 * `/` after the host): other parameters keep their order and bytes, each key of `set` replaces its
 * first occurrence (or is appended), later duplicates and the `drop` keys go, the fragment stays.
 * Hand-written, without per-call closures or sets, because it runs for every link of every page.
 */
export function rewriteQuery(
  base: string,
  set: readonly (readonly [string, string])[],
  drop: readonly string[],
): string {
  const { path, parts, names, fragment } = cachedSplit(base)
  // Entries of `set` already written, by index (a handful at most, so a linear scan is cheapest).
  // Filled by a loop: `Array.prototype.fill` is a call into V8's C++ runtime, about 200
  // instructions for two entries.
  const placed: boolean[] = []
  for (let i = 0; i < set.length; i++) placed.push(false)
  // Built in one pass, `?` before the first parameter and `&` before the others: no slicing of
  // the joined string afterwards, which would make V8 copy it flat once more.
  let url = path
  let separator = '?'
  for (let i = 0; i < parts.length; i++) {
    const name = names[i] as string
    const at = indexIn(set, name)
    if (at !== -1) {
      if (placed[at]) continue
      placed[at] = true
      url += `${separator}${encodeComponent(name)}=${encodeComponent((set[at] as readonly [string, string])[1])}`
      separator = '&'
    } else if (name === '' || !drop.includes(name)) {
      url += `${separator}${parts[i]}`
      separator = '&'
    }
  }
  for (let i = 0; i < set.length; i++) {
    const [name, value] = set[i] as readonly [string, string]
    // Only the first entry of a name counts (a later duplicate maps to the same index).
    if (placed[i] || indexIn(set, name) !== i) continue
    placed[i] = true
    url += `${separator}${encodeComponent(name)}=${encodeComponent(value)}`
    separator = '&'
  }
  return url + fragment
}
