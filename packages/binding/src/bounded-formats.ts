import { Format } from 'typebox/format'

/** The longest address a mailbox can have (RFC 5321 §4.5.3.1.3: a path of 256 octets, brackets included). */
const longestEmail = 254

let bounded = false

/**
 * Bounds the one TypeBox format whose check costs more than a pass over the value: `idn-email`
 * puts the value in Unicode NFC first, and V8 orders a long run of combining marks by insertion,
 * so a 100 KB value took over a second and 1 MB over two minutes. No address is longer than 254
 * characters, so a longer value is refused before that work. TypeBox keeps one registry per
 * process: the bound holds for the app's own TypeBox checks too. Called before a validator is
 * compiled (not on import: the package declares no side effects).
 */
export function boundFormats(): void {
  if (bounded) return
  bounded = true
  const check = Format.Get('idn-email')
  if (check === undefined) return
  Format.Set('idn-email', (value: string) => value.length <= longestEmail && check(value))
}
