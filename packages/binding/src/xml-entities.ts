// The entity handling of XML bodies, given to fast-xml-parser as its `entityDecoder`: XML's five
// predefined entities and numeric character references are decoded (XML 1.0 §4.1, §4.6); an entity
// a document declares in its DOCTYPE, or any other named reference, is refused rather than
// expanded, so that a body cannot define what its text means (entity expansion, redefined `&lt;`).
// Written here because the library's own decoder expands declared entities.

const predefined: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

const reference = /&(#x[0-9a-fA-F]+|#[0-9]+|[^\s&;<]+);/g

/** Refusal of an XML body's entities; becomes the 400 `BindError`'s message. */
export class XmlEntityError extends Error {}

/** Whether `code` is a character XML 1.0 allows in a document (the `Char` production, §2.2). */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  )
}

function decodeReference(match: string, name: string): string {
  const known = predefined[name]
  if (known !== undefined) return known
  if (name.startsWith('#')) {
    const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10)
    if (!isXmlChar(code)) throw new XmlEntityError(`the XML body refers to a character XML does not allow (${match})`)
    return String.fromCodePoint(code)
  }
  throw new XmlEntityError(
    `the XML body uses the entity ${match}; only &lt; &gt; &amp; &quot; &apos; and numeric character references are accepted`,
  )
}

/** The decoder fast-xml-parser calls for text and attribute values (not for CDATA sections). */
export const xmlEntityDecoder = {
  decode(value: string): string {
    return value.includes('&') ? value.replace(reference, decodeReference) : value
  },
  addInputEntities(entities: Record<string, string> | undefined): void {
    const names = Object.keys(entities ?? {})
    if (names.length > 0) {
      throw new XmlEntityError(
        `the XML body declares entities (${names.join(', ')}); entity declarations are not accepted`,
      )
    }
  },
  // the app adds no entities of its own to binding's parser
  setExternalEntities(_entities: Record<string, string>): void {},
  reset(): void {},
  setXmlVersion(_version: number): void {},
}
