// Words that cannot start a JavaScript expression as an identifier (reserved words, strict-mode
// reserved words and the literals): `typeof if === 'function'` would not even parse.
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try ' +
    'typeof var void while with yield let static implements interface package private protected public await'
  ).split(' '),
)
const NOT_ALLOWED = /[^A-Za-z0-9_$.[\]]/g
const IDENTIFIER = '[A-Za-z_$][\\w$]*'
const MEMBER_EXPRESSION = new RegExp(`^${IDENTIFIER}(?:\\.${IDENTIFIER}|\\[(?:\\d+|${IDENTIFIER})\\])*$`)
const IDENTIFIERS = /[A-Za-z_$][\w$]*/g

/**
 * A JSONP callback name: characters outside `[A-Za-z0-9_$.[\]]` are removed (as Fiber and
 * Express do: `foo;bar()` becomes `foobar`); an empty result, a reserved word used as an
 * identifier, or something that is still not a member expression (`1a`, `a..b`) falls back to
 * `callback`, so the body is always valid JavaScript.
 */
export function safeCallback(name: string | undefined): string {
  if (name === undefined) return 'callback'
  const stripped = name.replace(NOT_ALLOWED, '').slice(0, 256)
  if (!MEMBER_EXPRESSION.test(stripped)) return 'callback'
  // after a dot, reserved words are valid property names (`a.default`); elsewhere they are not
  for (const match of stripped.matchAll(IDENTIFIERS)) {
    const afterDot = match.index > 0 && stripped[match.index - 1] === '.'
    if (!afterDot && RESERVED.has(match[0])) return 'callback'
  }
  return stripped
}
