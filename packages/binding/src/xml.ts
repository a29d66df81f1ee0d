import { XMLParser } from 'fast-xml-parser'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { ensureConfig } from './config.js'
import { keepRawBodies, xmlTypes } from './raw-bodies.js'
import { xmlEntityDecoder } from './xml-entities.js'

// Attributes are read as keys (prefix-free, like Go's `xml:"name,attr"`), every value stays a
// string (binding converts by schema), and no entity is expanded (xml-entities.ts).
const xmlParser = new XMLParser({
  entityDecoder: xmlEntityDecoder,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
})

async function plugin(fastify: FastifyInstance): Promise<void> {
  // `true`: the document is validated first, so that malformed XML is a 400, not a partial tree
  ensureConfig(fastify).xml = (text) => xmlParser.parse(text, true) as Record<string, unknown>
  keepRawBodies(fastify, xmlTypes)
}

/**
 * Enables XML bodies (`application/xml`, `text/xml`, `+xml` types) for `bind().xml()` and `body()`.
 * Needs the optional peer dependency `fast-xml-parser`. Entities a document declares are refused,
 * never expanded; XML's five predefined entities and character references are decoded.
 *
 * @example
 * import { xmlBodies } from '@weft/binding/xml'
 * await app.register(xmlBodies)
 */
export const xmlBodies: FastifyPluginAsync = fp(plugin, { fastify: '5.x', name: '@weft/binding-xml' })
