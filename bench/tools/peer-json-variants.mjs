// Servers of the JSON body route for http-ab-json.mjs (VARIANTS_MODULE), each loading only what its
// peer server loads: `fastify` and `weft` serve the JSON route alone (bare Fastify's `schema.body`
// route with @fastify/accepts registered; Weft's `handle()` + `c.bind().json()`), `fastify-peer`
// and `weft-peer` are the peer comparison's own servers (src/servers/peers-*.ts, all five routes),
// for PRELOAD (bench/RESULTS.md, 2026-11-28 afternoon):
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
  weft: async (app) => {
    const { handle, weftContext } = await import('@weft/context')
    const { weftBinding } = await import('@weft/binding')
    await app.register(weftContext)
    await app.register(weftBinding)
    app.post(
      '/items',
      handle(async (c) => c.status(201).json(await c.bind().json(Item))),
    )
  },
  // @weft/binding alone: its JSON parser keeps the bytes, no Ctx, no onRequest hook
  binding: async (app) => {
    const { bind, weftBinding } = await import('@weft/binding')
    await app.register(weftBinding)
    app.post('/items', async (request, reply) => reply.code(201).send(await bind(request).json(Item)))
  },
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
