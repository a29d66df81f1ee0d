import { parse as parseQueryString } from 'fast-querystring'
import { errorCodes, type FastifyBodyParser, type FastifyInstance } from 'fastify'
import { addKeepingParser } from './body-bytes.js'
import { configOfInstance } from './config.js'
import { hasRoutes } from './declared-routes.js'
import { InvalidUtf8Error } from './errors.js'
import { jsonParser } from './json-parser.js'
import { ownKeptTypes, withoutInheritedDefaults } from './kept-types.js'
import { deferMultipart } from './multipart.js'
import { cborTypes, msgpackTypes, xmlTypes } from './raw-bodies.js'
import { hasCatchAll, untypedBody } from './untyped-body.js'
import { utf8Text } from './utf8.js'

// Kept as bytes: bind() decodes them with the schema at hand, once their plugin (xmlBodies,
// msgpackBodies, cborBodies) is registered. Accepted without it too, so that binding them says
// how to enable the format instead of Fastify's bare 415.
const rawTypes = [...xmlTypes, ...msgpackTypes, ...cborTypes]
const jsonSuffix = /^[a-z]+\/[^;\s]+\+json(;|$)/i
const form = 'application/x-www-form-urlencoded'
const multipart = 'multipart/form-data'

const formParser: FastifyBodyParser<Buffer> = (_request, body, done) => {
  const text = utf8Text(body)
  if (text === undefined) done(new InvalidUtf8Error(), undefined)
  else done(null, parseQueryString(text))
}

// The contexts whose default parsers are in place or on their way (each context adds them once),
// and those whose hooks provide them (for themselves and the contexts made inside them).
const provided = new WeakSet<FastifyInstance>()
const providing = new WeakSet<FastifyInstance>()

/**
 * Gives every context binding's default parsers for the types no parser covers there, once the
 * plugins registered before its first route are loaded: the app's own parsers and the official
 * plugins' (`@fastify/formbody`, `@fastify/multipart`), registered before or after weftBinding,
 * are kept. A child context gives up the defaults it inherits (a parser of its own may take their
 * types), and gets its own at its first route. Routes declared before the plugin loaded (a
 * registration not awaited) get them when it loads.
 */
export function provideDefaultParsers(fastify: FastifyInstance): void {
  if (providedAbove(fastify)) return
  providing.add(fastify)
  fastify.addHook('onRoute', function (this: FastifyInstance) {
    if (provided.has(this)) return
    provided.add(this)
    // after the plugins queued before the route, as Fastify finishes the route itself
    this.after(async (error) => {
      // a plugin's failure stays the boot's failure
      if (error) throw error
      addDefaultParsers(this)
    })
  })
  fastify.addHook('onRegister', (child) => {
    for (const type of withoutInheritedDefaults(child)) child.removeContentTypeParser(type)
  })
  if (hasRoutes(fastify) && !provided.has(fastify)) {
    provided.add(fastify)
    addDefaultParsers(fastify)
  }
}

/** Whether `fastify` or a context it is made in has the hooks already (a second registration). */
function providedAbove(fastify: FastifyInstance): boolean {
  for (let holder: object | null = fastify; holder !== null; holder = Object.getPrototypeOf(holder)) {
    if (providing.has(holder as FastifyInstance)) return true
  }
  return false
}

function addDefaultParsers(app: FastifyInstance): void {
  const config = configOfInstance(app)
  const defaults = ownKeptTypes(app).defaults
  const add = (type: string | RegExp, parse?: FastifyBodyParser<Buffer>) => {
    if (app.hasContentTypeParser(type)) return
    addKeepingParser(app, type, parse)
    defaults.push(type)
  }
  add(form, formParser)
  for (const type of rawTypes) add(type)
  if (config.emptyJsonBody === 'absent' && takesJson(app)) defaults.push('application/json')
  else if (!app.hasContentTypeParser('application/json')) restoreFastifyJson(app)
  add(jsonSuffix, jsonParser(app))
  if (!hasCatchAll(app)) add(untypedBody)
  if (config.multipart && !app.hasContentTypeParser(multipart)) {
    app.addContentTypeParser(multipart, deferMultipart)
    defaults.push(multipart)
  }
}

/**
 * Puts the plugin's JSON parser in the place of Fastify's default, so that an empty body is no
 * body; a JSON parser of the app's own is kept (Fastify refuses to replace it: that is the test).
 */
function takesJson(app: FastifyInstance): boolean {
  try {
    addKeepingParser(app, 'application/json', jsonParser(app))
    return true
  } catch (error) {
    if (error instanceof errorCodes.FST_ERR_CTP_ALREADY_PRESENT) return false
    throw error
  }
}

/**
 * Puts Fastify's own JSON parser back in a child that gave up the parent's (`emptyJsonBody:
 * 'error'` there): without one, JSON bodies would be a 415.
 */
function restoreFastifyJson(app: FastifyInstance): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig
  const parse = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning)
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parse)
}
