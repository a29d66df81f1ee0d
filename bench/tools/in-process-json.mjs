// Per-request CPU cost of the peer comparison's JSON body route (`POST /items`, 10 fields) without
// the network, split into what each Weft layer adds: Node's own IncomingMessage (fed the body
// through `push`, as a socket would) and ServerResponse on a socket that discards its writes are
// handed to `app.routing()`; each variant runs in processes of its own, in interleaved rounds of
// CPU time (see in-process.mjs for why).
//
//   pnpm build && BENCH_ONLY=http:peers-json pnpm bench && node bench/tools/in-process-json.mjs [variant,...]
//
// Env: BASELINE_TREE (another checkout, built, for the variant that loads Weft from there).
//
// (The bench run compiles bench/src/servers/peers-shared.ts, whose schema this reuses.)
import { bind, weftBinding } from '@weft/binding'
import { handle, weftContext } from '@weft/context'
import Fastify from 'fastify'
import { Compile } from 'typebox/compile'
import { Item, itemBody, taggedByName } from '../.tmp/servers/peers-shared.js'
import { orchestrate, routeOnce, runWorker } from './in-process-harness.mjs'

const body = Buffer.from(itemBody)

/** `Item` as a Weft route schema: each field tagged with its JSON name. */
const TaggedItem = taggedByName(Item, 'json')

/** The routes compared; the first one given is the baseline. */
const variants = {
  'fastify schema.body': (app) => {
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + no-op preParsing hook': (app) => {
    app.addHook('preParsing', (_request, _reply, payload, done) => done(null, payload))
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + no-op onRequest hook': (app) => {
    app.addHook('onRequest', (_request, _reply, done) => done())
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + onRequest keeping chunks': (app) => {
    app.addHook('onRequest', (request, _reply, done) => {
      const chunks = []
      request.chunks = chunks
      request.raw.pause()
      request.raw.on('data', (chunk) => chunks.push(chunk))
      done()
    })
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + onRequest hook + JSON parser keeping bytes': (app) => {
    app.addHook('onRequest', (_request, _reply, done) => done())
    const parse = app.getDefaultJsonParser('error', 'error')
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) => {
      request.bytes = bytes
      parse(request, bytes.toString(), done)
    })
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + preParsing keeping chunks': (app) => {
    app.addHook('preParsing', (request, _reply, payload, done) => {
      const chunks = []
      request.chunks = chunks
      payload.pause()
      payload.on('data', (chunk) => chunks.push(chunk))
      done(null, payload)
    })
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + weftBinding registered': async (app) => {
    await app.register(weftBinding)
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + weftContext registered': async (app) => {
    await app.register(weftContext)
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify without schema': (app) => {
    app.post('/items', async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify without schema + routeOptions read': (app) => {
    app.post('/items', async (request, reply) => {
      if (request.routeOptions.bodyLimit < 10) throw new Error('limit')
      return reply.code(201).send(request.body)
    })
  },
  'fastify without schema + TypeBox Check in place': async (app) => {
    await app.register(weftBinding)
    const checker = Compile(Item)
    app.post('/items', async (request, reply) => {
      if (!checker.Check(request.body)) return reply.code(400).send('bad')
      return reply.code(201).send(request.body)
    })
  },
  'fastify without schema + TypeBox Check only': (app) => {
    const checker = Compile(Item)
    app.post('/items', async (request, reply) => {
      if (!checker.Check(request.body)) return reply.code(400).send('bad')
      return reply.code(201).send(request.body)
    })
  },
  'fastify without schema + JSON parser as buffer': (app) => {
    const parse = app.getDefaultJsonParser('error', 'error')
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) => {
      parse(request, bytes.toString(), done)
    })
    app.post('/items', async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify without schema + JSON parser keeping bytes': (app) => {
    const kept = Symbol('kept')
    app.decorateRequest(kept, undefined)
    const parse = app.getDefaultJsonParser('error', 'error')
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) => {
      request[kept] = bytes
      parse(request, bytes.toString(), done)
    })
    app.post('/items', async (request, reply) => reply.code(201).send(request.body))
  },
  // what @weft/binding's parsers do since stop 38 (its read-body.ts, without the limits)
  'fastify without schema + JSON parser reading the stream and keeping bytes': (app) => {
    const kept = Symbol('kept')
    app.decorateRequest(kept, undefined)
    const parse = app.getDefaultJsonParser('error', 'error')
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser('application/json', (request, payload, done) => {
      let first
      let more
      payload.on('data', (chunk) => {
        if (first === undefined) first = chunk
        else if (more === undefined) more = [first, chunk]
        else more.push(chunk)
      })
      payload.on('end', () => {
        const bytes = more === undefined ? first : Buffer.concat(more)
        request[kept] = bytes
        parse(request, bytes.toString(), done)
      })
    })
    app.post('/items', async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify without schema + a no-op fp plugin': async (app) => {
    const plugin = async () => {}
    plugin[Symbol.for('skip-override')] = true
    await app.register(plugin)
    app.post('/items', async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + a no-op fp plugin': async (app) => {
    const plugin = async () => {}
    plugin[Symbol.for('skip-override')] = true
    await app.register(plugin)
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + two no-op fp plugins awaited apart': async (app) => {
    for (const name of ['one', 'two']) {
      const plugin = async () => {}
      plugin[Symbol.for('skip-override')] = true
      plugin[Symbol.for('fastify.display-name')] = name
      await app.register(plugin)
    }
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + a no-op fp plugin not awaited': (app) => {
    const plugin = async () => {}
    plugin[Symbol.for('skip-override')] = true
    app.register(plugin)
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + await Promise.resolve()': async (app) => {
    await Promise.resolve()
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + weftContext and weftBinding not awaited': (app) => {
    app.register(weftContext)
    app.register(weftBinding)
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'the peer route with its plugins not awaited': (app) => {
    app.register(weftContext)
    app.register(weftBinding)
    app.post(
      '/items',
      handle(async (c) => c.status(201).json(await c.bind().json(Item))),
    )
  },
  'fastify without schema + a no-op fp plugin not awaited': (app) => {
    const plugin = async () => {}
    plugin[Symbol.for('skip-override')] = true
    app.register(plugin)
    app.post('/items', async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify without schema + await app.after()': async (app) => {
    await app.after()
    app.post('/items', async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify without schema + a no-op encapsulated plugin': async (app) => {
    await app.register(async () => {})
    app.post('/items', async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify without schema + a symbol defined on the instance': (app) => {
    Object.defineProperty(app, Symbol('config'), { value: {}, writable: true, configurable: true })
    app.post('/items', async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify without schema + pattern parsers': (app) => {
    for (const type of [
      /^[a-z]+\/[^;\s]+\+xml(;|$)/i,
      /^[a-z]+\/[^;\s]+\+cbor(;|$)/i,
      /^[a-z]+\/[^;\s]+\+json(;|$)/i,
    ]) {
      app.addContentTypeParser(type, { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
    }
    app.post('/items', async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify without schema + weftBinding registered': async (app) => {
    await app.register(weftBinding)
    app.post('/items', async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify without schema + await of a resolved promise': (app) => {
    app.post('/items', async (request, reply) => reply.code(201).send(await Promise.resolve(request.body)))
  },
  'fastify without schema + weftBinding registered + await of a resolved promise': async (app) => {
    await app.register(weftBinding)
    app.post('/items', async (request, reply) => reply.code(201).send(await Promise.resolve(request.body)))
  },
  // The same route schema, validated and bound by Weft in Fastify's validation phase instead of Ajv.
  'weft route schema (routeSchemas: all)': async (app) => {
    await app.register(weftBinding, { routeSchemas: 'all' })
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'weftBinding + Check + await': async (app) => {
    await app.register(weftBinding)
    const checker = Compile(Item)
    app.post('/items', async (request, reply) => {
      if (!checker.Check(request.body)) return reply.code(400).send('bad')
      return reply.code(201).send(await Promise.resolve(request.body))
    })
  },
  'plain handler + bind(request).json()': async (app) => {
    await app.register(weftBinding)
    app.post('/items', async (request, reply) => reply.code(201).send(await bind(request).json(Item)))
  },
  'weftContext + plain handler + bind().json()': async (app) => {
    await app.register(weftContext)
    app.post('/items', async (request, reply) => reply.code(201).send(await bind(request).json(Item)))
  },
  'handle() + schema.body + c.json(request.body)': async (app) => {
    await app.register(weftContext)
    app.post(
      '/items',
      { schema: { body: Item } },
      handle((c) => c.status(201).json(c.request().body)),
    )
  },
  'handle() + schema.body + async c.json(request.body)': async (app) => {
    await app.register(weftContext)
    app.post(
      '/items',
      { schema: { body: Item } },
      handle(async (c) => c.status(201).json(c.request().body)),
    )
  },
  'handle() + Weft route schema (json tags) + c.json(request.body)': async (app) => {
    await app.register(weftContext)
    await app.register(weftBinding)
    app.post(
      '/items',
      { schema: { body: TaggedItem } },
      handle((c) => c.status(201).json(c.request().body)),
    )
  },
  'handle() + await bind(request).json()': async (app) => {
    await app.register(weftContext)
    app.post(
      '/items',
      handle(async (c) => c.status(201).json(await bind(c.request()).json(Item))),
    )
  },
  'handle() + bind(request).json().then()': async (app) => {
    await app.register(weftContext)
    app.post(
      '/items',
      handle((c) =>
        bind(c.request())
          .json(Item)
          .then((item) => c.status(201).json(item)),
      ),
    )
  },
  'handle() + c.bind().json() (the peer route)': async (app) => {
    await app.register(weftContext)
    await app.register(weftBinding)
    app.post(
      '/items',
      handle(async (c) => c.status(201).json(await c.bind().json(Item))),
    )
  },
  // the same route with @weft/context (and the @weft/binding it depends on) as built in another
  // checkout, e.g. `git worktree add /tmp/before HEAD~1` + `pnpm install && pnpm build` there
  'the peer route as built in BASELINE_TREE': async (app) => {
    const context = await import(`${process.env.BASELINE_TREE}/packages/context/dist/index.js`)
    await app.register(context.weftContext)
    app.post(
      '/items',
      context.handle(async (c) => c.status(201).json(await c.bind().json(Item))),
    )
  },
}

const REQUESTS = Number(process.env.REQUESTS ?? 20_000)

function request(app) {
  return routeOnce(
    app,
    (req) => {
      req.method = 'POST'
      req.url = '/items'
      req.headers = { host: 'localhost', 'content-type': 'application/json', 'content-length': String(body.length) }
      req.rawHeaders = ['host', 'localhost', 'content-type', 'application/json', 'content-length', String(body.length)]
    },
    // the body arrives after the headers, as from a socket
    (req) =>
      setImmediate(() => {
        req.push(Buffer.from(body))
        req.complete = true
        req.push(null)
      }),
  )
}

const expected = JSON.stringify(JSON.parse(itemBody))
const isRight = (answer) => answer.startsWith('HTTP/1.1 201') && answer.endsWith(expected)

if (process.env.HTTP_VARIANT) {
  // a server for http-ab-json.mjs: listens, then sends its port
  const app = Fastify({ logger: false })
  await variants[process.env.HTTP_VARIANT](app)
  await app.listen({ host: '127.0.0.1', port: 0 })
  process.on('SIGTERM', () => process.exit(0)) // so --cpu-prof writes its profile
  process.send(app.server.address().port)
} else if (process.env.IN_PROCESS_VARIANT) {
  await runWorker(process.env.IN_PROCESS_VARIANT, variants[process.env.IN_PROCESS_VARIANT], request, isRight)
} else {
  const names = process.argv[2] ? process.argv[2].split(',') : Object.keys(variants)
  await orchestrate(new URL(import.meta.url).pathname, Object.keys(variants), names, REQUESTS)
}
