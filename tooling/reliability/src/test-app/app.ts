import { bind } from '@weft/binding'
import { cborBodies } from '@weft/binding/cbor'
import { msgpackBodies } from '@weft/binding/msgpack'
import { handle, weftContext } from '@weft/context'
import { fromContext, paginate } from '@weft/pagination'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { Type } from 'typebox'

/** The secret the test app signs its cursors with (known to the suite, to re-sign hostile payloads). */
export const testAppCursorSecret = 'reliability-test-app-cursor-secret'

/** The query `GET /search` binds (exported: the fuzzer generates from it). */
export const Search = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 100 })),
  tags: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 20 })),
  ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { query: 'id', maxItems: 20 })),
  page: Type.Integer({ default: 1, minimum: 1, maximum: 1000 }),
  exact: Type.Boolean({ default: false }),
  price: Type.Optional(Type.Number({ minimum: 0 })),
})

/** The body `POST /items` binds. */
export const Item = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  price: Type.Number({ minimum: 0 }),
  tags: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 })),
  stock: Type.Optional(Type.Integer({ minimum: 0 })),
  meta: Type.Optional(Type.Object({ color: Type.Optional(Type.String()), size: Type.Optional(Type.Integer()) })),
})

/** The headers and cookie `GET /caller` binds. */
export const Caller = Type.Object({
  token: Type.Optional(Type.String({ header: 'X-Token', maxLength: 200 })),
  agent: Type.Optional(Type.String({ header: 'User-Agent' })),
  session: Type.Optional(Type.String({ cookie: 'session' })),
})

/** The path `GET /items/:id/bound` binds. */
export const ItemParams = Type.Object({ id: Type.Integer({ uri: 'id', minimum: 1 }) })

/** An in-memory catalogue the list route pages through. */
const catalogue = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, name: `item ${String(i + 1).padStart(3, '0')}` }))

/**
 * A plain Fastify app using all three packages the way their READMEs show: context readers and
 * negotiation, binding of every source and body type, pagination with signed cursors. Errors leave
 * through Fastify's default handler, so what the fuzzer sees is what the packages throw.
 */
export async function buildTestApp(logger: FastifyServerOptions['logger'] = false): Promise<FastifyInstance> {
  const app = Fastify({ logger, bodyLimit: 64 * 1024 })
  await app.register(weftContext, { proxyHeader: 'X-Real-IP', enableSplittingOnParsers: true })
  await app.register(msgpackBodies)
  await app.register(cborBodies)
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ statusCode: 404, code: 'FST_ERR_NOT_FOUND', error: 'Not Found', message: `${request.method} not found` }),
  )

  app.get(
    '/inspect',
    handle(async (c) => {
      c.vary('Accept')
      return c.json({
        accepts: c.accepts('application/json', 'text/html', 'text/plain'),
        charset: c.acceptsCharsets('utf-8', 'iso-8859-1'),
        encoding: c.acceptsEncodings('gzip', 'br', 'identity'),
        language: c.acceptsLanguages('en', 'fr', 'de-CH'),
        ip: c.ip(),
        ips: c.ips(),
        hostname: c.hostname(),
        subdomains: c.subdomains(),
        protocol: c.protocol(),
        xhr: c.xhr(),
        fresh: c.fresh(),
        cookie: c.cookies('session'),
        queries: c.queries(),
        q: c.query('q'),
        n: c.queryInt('n', 0),
        f: c.queryFloat('f', 0),
        b: c.queryBool('b', false),
        headers: Object.keys(c.getReqHeaders()).length,
      })
    }),
  )

  app.get(
    '/range',
    handle(async (c) => c.json(c.range(1000))),
  )

  app.get(
    '/negotiate',
    handle(async (c) => c.format({ ok: true, items: [1, 2, 3] })),
  )

  app.get(
    '/items/:id',
    handle(async (c) => c.json({ id: c.paramsInt('id'), params: c.allParams() })),
  )

  app.get('/items/:id/bound', async (request) => bind(request).withAutoHandling().uri(ItemParams))

  app.get('/search', async (request) => bind(request).query(Search))

  app.get('/caller', async (request, reply) => {
    const binder = bind(request, reply)
    return { header: await binder.header(Caller), cookie: await binder.cookie(Caller) }
  })

  app.post(
    '/items',
    handle(async (c) => {
      const item = await c.bind().body(Item)
      return c.status(201).json(item)
    }),
  )

  app.post(
    '/upload',
    handle(async (c) => {
      const form = await c.multipartForm()
      const files = Object.fromEntries(Object.entries(form.file).map(([k, fs]) => [k, fs.map((f) => f.size)]))
      return c.json({ values: Object.keys(form.value), files })
    }),
  )

  app.get(
    '/list',
    {
      onRequest: paginate({
        allowedSorts: ['id', 'name'],
        defaultSort: 'id',
        cursorSecret: testAppCursorSecret,
        sortFingerprint: true,
      }),
    },
    async (request) => {
      const page = fromContext(request)
      if (!page) throw new Error('pagination hook did not run')
      let start = page.start()
      if (page.cursor !== '') {
        const after = page.cursorValues().id
        start = typeof after === 'number' && Number.isSafeInteger(after) ? Math.max(0, after) : 0
      }
      const items = catalogue.slice(start, start + page.limit)
      const last = items.at(-1)
      if (last && start + page.limit < catalogue.length) page.setNextCursor({ id: last.id })
      return { items, page: page.toJSON() }
    },
  )

  return app
}
