import escapeHtml from 'escape-html'
import XMLBuilder from 'fast-xml-builder'
import { safeCallback } from './jsonp-callback.js'
import { checkXmlNames } from './xml-names.js'

const xmlBuilder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_' })

/** JSON of a value (undefined becomes `null`, like Fiber). */
export function toJSON(data: unknown): string {
  return JSON.stringify(data) ?? 'null'
}

/**
 * A JSONP body of JSON text: the callback called with the JSON, `/**\/` first (defeats content
 * sniffing of the body as Flash), U+2028/U+2029 escaped so the JSON is valid JavaScript.
 */
export function jsonpCall(json: string, callback: string | undefined): string {
  const script = json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
  const cb = safeCallback(callback)
  return `/**/ typeof ${cb} === 'function' && ${cb}(${script});`
}

/**
 * XML of a value with fast-xml-builder: a string is sent as is, an object with one key
 * names the root element, anything else is wrapped in `<response>`. Keys starting with `@_` are
 * attributes; every key must be an XML Name (400 `WEFT_INVALID_XML_NAME`).
 */
export function toXML(data: unknown): string {
  if (typeof data === 'string') return data
  checkXmlNames(data)
  const isSingleRoot =
    data !== null && typeof data === 'object' && !Array.isArray(data) && Object.keys(data).length === 1
  return xmlBuilder.build(isSingleRoot ? data : { response: data }) as string
}

/** `<p>` + HTML-escaped text + `</p>` (`format()`'s HTML form). */
export function htmlParagraph(text: string): string {
  return `<p>${escapeHtml(text)}</p>`
}
