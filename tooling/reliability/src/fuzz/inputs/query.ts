import fc from 'fast-check'
import { digits, hostileKeys, text, urlComponent } from './text.js'

/** One bracket segment of a key: `[]`, `[3]`, `[99999999999]`, `[__proto__]`, `[name]`. */
const bracket = (names: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.constant('[]'),
    fc.nat(30).map((n) => `[${n}]`),
    digits.map((d) => `[${d}]`),
    fc.constantFrom('[-1]', '[1.5]', '[ 0]', '[', ']', '[[]]', '[]]'),
    names.map((k) => `[${k}]`),
  )

/**
 * A query-string key: a name (the route's own, a prototype key, or anything), then brackets: empty,
 * indexes, huge indexes, and nesting up to 60 levels deep, or dotted paths.
 */
export const queryKey = (known: readonly string[]): fc.Arbitrary<string> => {
  const names = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known, ...hostileKeys) },
    { weight: 1, arbitrary: text(12) },
  )
  return fc
    .tuple(
      names,
      fc.oneof(
        { weight: 3, arbitrary: fc.array(bracket(names), { maxLength: 3 }) },
        { weight: 1, arbitrary: fc.array(bracket(names), { minLength: 10, maxLength: 60 }) },
      ),
      fc.option(
        names.map((n) => `.${n}`),
        { freq: 5 },
      ),
    )
    .map(([name, brackets, dotted]) => name + brackets.join('') + (dotted ?? ''))
}

/** A query-string value: text, numbers far out of range, or lists separated by commas. */
export const queryValue: fc.Arbitrary<string> = fc.oneof(
  text(),
  digits,
  fc.integer().map(String),
  fc.double().map(String),
  fc.array(text(8), { maxLength: 6 }).map((parts) => parts.join(',')),
)

/**
 * A whole query string (without `?`): pairs joined by `&` (sometimes `&&` or `;`), keys and values
 * percent-encoded, raw, or with broken escapes; repeated keys; bare keys without `=`.
 */
export const queryString = (known: readonly string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.array(fc.tuple(urlComponent(queryKey(known)), fc.option(urlComponent(queryValue), { freq: 6 })), {
        maxLength: 24,
      }),
      fc.constantFrom('&', '&', '&', '&&', ';'),
    )
    .map(([pairs, separator]) =>
      pairs.map(([key, value]) => (value === null ? key : `${key}=${value}`)).join(separator),
    )
