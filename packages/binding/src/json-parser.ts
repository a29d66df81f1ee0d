import type { FastifyBodyParser, FastifyInstance } from 'fastify'
import { InvalidUtf8Error } from './errors.js'
import { type RefusedKeys, refusedKeyError } from './forbidden-keys.js'
import { checkJsonDepth } from './json-depth.js'
import { noteJsonText } from './json-text.js'
import { utf8Text } from './utf8.js'

/**
 * Fastify's JSON parser (with the app's poisoning settings), given the text as Fastify's own string
 * parsers decode it; an empty body is no body, and bytes that are not UTF-8 are a 400
 * (RFC 8259 §8.1), not text with U+FFFD in it.
 */
export function jsonParser(fastify: FastifyInstance): FastifyBodyParser<Buffer> {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = fastify.initialConfig
  const parse = fastify.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning)
  const refused: RefusedKeys = { proto: onProtoPoisoning === 'error', constructor: onConstructorPoisoning === 'error' }
  return (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined)
      return
    }
    const text = utf8Text(body)
    if (text === undefined) {
      done(new InvalidUtf8Error(), undefined)
      return
    }
    // a large body nested deep costs the parser far more than its size (json-depth.ts)
    try {
      checkJsonDepth(text)
    } catch (error) {
      done(error as Error, undefined)
      return
    }
    noteJsonText(body, text)
    parse(request, text, (error, value) => {
      const named = error ? refusedKeyError(text, refused) : undefined
      done(named ?? error, value)
    })
  }
}
