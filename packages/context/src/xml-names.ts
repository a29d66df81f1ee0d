import { InvalidXmlNameError, InvalidXmlTextError } from './errors.js'

// XML 1.0 (fifth edition) NameStartChar and NameChar productions
const START =
  'A-Z_a-z:\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}'
const XML_NAME = new RegExp(`^[${START}][${START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*$`, 'u')
const ATTRIBUTE_PREFIX = '@_'
const TEXT_KEY = '#text'

// Characters outside XML 1.0's Char production (§2.2): C0 controls but tab, LF and CR, U+FFFE,
// U+FFFF and lone surrogates. Not even a character reference may name them.
const NOT_XML_CHAR =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the controls XML forbids is its job
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

function checkXmlText(text: string): void {
  const found = NOT_XML_CHAR.exec(text)
  if (found !== null) {
    const code = (found[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')
    throw new InvalidXmlTextError(`U+${code}`)
  }
}

/** True when `name` is an XML Name (what an element or attribute may be called). */
export function isXmlName(name: string): boolean {
  return XML_NAME.test(name)
}

/**
 * Throws a 400 `WEFT_INVALID_XML_NAME` when a key of `data` (the builder turns keys into element
 * and attribute names) is not an XML Name: `{ 'a><script>': 1 }` would otherwise inject markup.
 * `@_name` keys are attributes, `#text` the element's text. A text holding a character XML does
 * not allow is a 400 `WEFT_INVALID_XML_TEXT`: the document would be unreadable to every client.
 */
export function checkXmlNames(data: unknown, depth = 0): void {
  if (typeof data === 'string') checkXmlText(data)
  if (data === null || typeof data !== 'object' || depth > 256) return
  if (Array.isArray(data)) {
    for (const item of data) checkXmlNames(item, depth + 1)
    return
  }
  for (const [key, value] of Object.entries(data)) {
    if (key !== TEXT_KEY) {
      const name = key.startsWith(ATTRIBUTE_PREFIX) ? key.slice(ATTRIBUTE_PREFIX.length) : key
      if (!isXmlName(name)) throw new InvalidXmlNameError(key.replace(/[^\w.:-]/g, '?').slice(0, 64))
    }
    checkXmlNames(value, depth + 1)
  }
}
