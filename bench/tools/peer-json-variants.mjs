// Servers of the JSON body route for http-ab-json.mjs (VARIANTS_MODULE), each loading only what its
// peer server loads: `fastify` and `weft` serve the JSON route alone (bare Fastify's `schema.body`
// route with @fastify/accepts registered; Weft's `handle()` + `c.bind().json()`), `fastify-peer`
// and `weft-peer` are the peer comparison's own servers (src/servers/peers-*.ts, all five routes),
// for PRELOAD (bench/RESULTS.md, 2026-11-28 afternoon). `fastify-bytes-kept`/`-dropped` allocate
// what Weft's route allocates more on Fastify's route; `weft-string-parser` and
// `weft-buffer-parser-not-kept` are Weft's route with a JSON parser that keeps no bytes
// (bench/RESULTS.md, 2026-11-29):
//
//   VARIANTS_MODULE=$PWD/bench/tools/peer-json-variants.mjs PRELOAD=2 COPIES=4 ROUNDS=4 \
//     node bench/tools/http-ab-json.mjs fastify-peer,weft-peer
import Fastify from 'fastify'
import { Item } from '../.tmp/servers/peers-shared.js'

const routes = {
  fastify: async (app) => {
    const { default: accepts } = await import('@fastify/accepts')
    await app.register(accepts)
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  weft: (app) => weftRoute(app),
  // bare Fastify's route allocating what Weft's allocates more per request (about 1,400 bytes in
  // ten objects), kept on the request until it ends, or dropped at once: whether bytes alone cost
  // what Weft's route costs more over sockets
  'fastify-bytes-kept': (app) => fastifyAllocating(app, true),
  'fastify-bytes-dropped': (app) => fastifyAllocating(app, false),
  // Weft's route with a JSON parser that keeps no bytes: Fastify's own string parser, or a buffer
  'weft-string-parser': (app) => weftRoute(app, (parse) => [{ parseAs: 'string' }, parse]),
  'weft-buffer-parser-not-kept': (app) =>
    weftRoute(app, (parse) => [{ parseAs: 'buffer' }, (request, body, done) => parse(request, body.toString(), done)]),
  // @weft/binding alone: its JSON parser keeps the bytes, no Ctx, no onRequest hook
  binding: async (app) => {
    const { bind, weftBinding } = await import('@weft/binding')
    await app.register(weftBinding)
    app.post('/items', async (request, reply) => reply.code(201).send(await bind(request).json(Item)))
  },
}

/** Weft's JSON route; `jsonParser(parse)` gives the options and parser that replace binding's, if any. */
async function weftRoute(app, jsonParser) {
  const { handle, weftContext } = await import('@weft/context')
  const { weftBinding } = await import('@weft/binding')
  await app.register(weftContext)
  await app.register(weftBinding)
  if (jsonParser !== undefined) {
    const [options, parser] = jsonParser(app.getDefaultJsonParser('error', 'error'))
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser('application/json', options, parser)
  }
  app.post(
    '/items',
    handle(async (c) => c.status(201).json(await c.bind().json(Item))),
  )
}

const kKept = Symbol('kept')
// the last one dropped stays reachable until the next request: V8 cannot elide the allocation
const dropped = { last: undefined }

/** Ten objects of twelve fields each, about as many bytes as Weft's route allocates more. */
function garbage(request) {
  const objects = []
  for (let i = 0; i < 10; i++) {
    objects.push({
      a: request,
      b: i,
      c: undefined,
      d: undefined,
      e: null,
      f: null,
      g: 0,
      h: 0,
      i: i,
      j: undefined,
      k: null,
      l: objects,
    })
  }
  return objects
}

async function fastifyAllocating(app, keep) {
  const { default: accepts } = await import('@fastify/accepts')
  await app.register(accepts)
  app.decorateRequest(kKept, undefined)
  app.post('/items', { schema: { body: Item } }, async (request, reply) => {
    if (keep) request[kKept] = garbage(request)
    else dropped.last = garbage(request)
    return reply.code(201).send(request.body)
  })
}

/** Runs a peer server script, and hands its port (from its READY line) to http-ab-json.mjs. */
async function peerServer(script) {
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = (chunk, ...rest) => {
    const line = String(chunk)
    if (line.startsWith('READY ')) process.send(JSON.parse(line.slice(6)).port)
    return write(chunk, ...rest)
  }
  await import(script)
}

const variant = process.env.HTTP_VARIANT
if (variant.endsWith('-peer')) await peerServer(`../.tmp/servers/peers-${variant.slice(0, -5)}.js`)
else {
  const app = Fastify({ logger: false })
  await routes[variant](app)
  await app.listen({ host: '127.0.0.1', port: 0 })
  process.on('SIGTERM', () => process.exit(0))
  process.send(app.server.address().port)
}
