import { domainToASCII, domainToUnicode } from 'node:url'

// DNS limits (RFC 1035): longer names or labels are not IDNs, and bounding them bounds the work.
const MAX_NAME = 253
const MAX_LABEL = 63
// STD3 rules: an ASCII label holds letters, digits and hyphens only
const LDH = /^[a-z0-9-]+$/

function isASCII(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false
  return true
}

/** UTS #46 CheckHyphens: no hyphen at either end, none in both the third and fourth places. */
function hyphensValid(label: string): boolean {
  return !label.startsWith('-') && !label.endsWith('-') && label.slice(2, 4) !== '--'
}

/** The Unicode form of one `xn--` label, or `undefined` when it is not a valid IDN label. */
function decodeLabel(label: string): string | undefined {
  const unicode = domainToUnicode(label)
  // Node decodes by the URL standard, which skips the hyphen and STD3 checks and accepts labels
  // that decode to plain ASCII; the lookup rules Fiber applies refuse those, so check them here,
  // and that the label is the canonical encoding of what it decodes to.
  if (unicode === '' || isASCII(unicode) || !hyphensValid(unicode)) return undefined
  return domainToASCII(unicode) === label ? unicode : undefined
}

/**
 * A lower-cased host name with its punycode (`xn--`) labels in Unicode, or the name unchanged
 * when any label is not valid under IDNA lookup rules (UTS #46 with STD3 and hyphen checks, as
 * Fiber's `idna.Lookup`): `xn--bcher-kva.example.com` → `bücher.example.com`, while
 * `xn--bcher--.example.com` stays as sent.
 */
export function decodeHostName(name: string): string {
  if (!name.includes('xn--') || name.length > MAX_NAME) return name
  const labels = name.split('.')
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i] as string
    if (label.length > MAX_LABEL || label === '') return name
    if (label.startsWith('xn--')) {
      const unicode = decodeLabel(label)
      if (unicode === undefined) return name
      labels[i] = unicode
    } else if (!LDH.test(label) || !hyphensValid(label)) return name
  }
  return labels.join('.')
}
