// Per-request CPU cost of the peer comparison's pagination route (`GET /products?page=3&limit=20
// &sort=-price`, 10,000 rows in memory) without the network: bare Fastify's hand-written paging
// against Weft's `paginate()` + `handle()`, and steps in between, each in processes of its own,
// measured in interleaved rounds of CPU time (see in-process.mjs for why).
//
//   pnpm build && BENCH_ONLY=http:peers-pagination pnpm bench && node bench/tools/in-process-paging.mjs [variant,...]
//
// Env: BASELINE_TREE (another checkout, built, for the variant that loads Weft from there).
//
// (The bench run compiles bench/src/servers/, whose shared rows and paging rules this reuses.)
import { handle, weftContext } from '@weft/context'
import { fromContext, paginate } from '@weft/pagination'
import { pageQuery, pagingLinks } from '../.tmp/servers/peers-paging.js'
import { paging, rows, rowsSortedBy } from '../.tmp/servers/peers-shared.js'
import { getOnce, orchestrate, runWorker } from './in-process-harness.mjs'

const url = '/products?page=3&limit=20&sort=-price'

/** The route of bare Fastify in the peer comparison (bench/src/servers/peers-fastify.ts). */
function byHand(request, reply) {
  const page = pageQuery(request.query)
  const start = (page.page - 1) * page.limit
  const data = rowsSortedBy(page.field, page.descending).slice(start, start + page.limit)
  reply.header('link', pagingLinks(request.url, page))
  return { data, meta: { page: page.page, limit: page.limit, total: rows.length } }
}

/** Weft's route (bench/src/servers/peers-weft.ts), with the given builds of @weft/context and @weft/pagination. */
const weftRouteOf = (context, pagination) =>
  context.handle((c) => {
    const page = pagination.fromContext(c)
    const [sort] = page.sort
    const start = page.start()
    const data = rowsSortedBy(sort.field, sort.order === 'desc').slice(start, start + page.limit)
    const at = c.originalURL()
    c.links(page.nextPageURL(at), 'next')
    if (page.page > 1) c.links(page.previousPageURL(at), 'prev')
    c.json({ data, meta: { page: page.page, limit: page.limit, total: rows.length } })
  })

const weftRoute = weftRouteOf({ handle }, { fromContext })

/** The routes compared; the first one given is the baseline. */
const variants = {
  fastify: (app) => app.get('/products', async (request, reply) => byHand(request, reply)),
  'fastify + weftContext': async (app) => {
    await app.register(weftContext)
    app.get('/products', async (request, reply) => byHand(request, reply))
  },
  'fastify + weftContext + paginate hook (unused)': async (app) => {
    await app.register(weftContext)
    app.get('/products', { onRequest: paginate({ allowedSorts: paging.allowedSorts }) }, async (request, reply) =>
      byHand(request, reply),
    )
  },
  'handle() by hand': async (app) => {
    await app.register(weftContext)
    app.get(
      '/products',
      handle((c) => byHand(c.request(), c.response())),
    )
  },
  weft: async (app) => {
    await app.register(weftContext)
    app.get('/products', { onRequest: paginate({ allowedSorts: paging.allowedSorts }) }, weftRoute)
  },
  'weft as built in BASELINE_TREE': async (app) => {
    const tree = process.env.BASELINE_TREE
    const context = await import(`${tree}/packages/context/dist/index.js`)
    const pagination = await import(`${tree}/packages/pagination/dist/index.js`)
    await app.register(context.weftContext)
    app.get(
      '/products',
      { onRequest: pagination.paginate({ allowedSorts: paging.allowedSorts }) },
      weftRouteOf(context, pagination),
    )
  },
}

const REQUESTS = Number(process.env.REQUESTS ?? 20_000)

const request = (app) => getOnce(app, url)

const isRight = (answer) =>
  answer.startsWith('HTTP/1.1 200') && /\r\nlink: <\/products\?page=4&limit=20&sort=-price>; rel="next"/i.test(answer)

const script = new URL(import.meta.url).pathname
const names = process.argv[2] ? process.argv[2].split(',') : Object.keys(variants)
const variant = process.env.IN_PROCESS_VARIANT
if (process.env.HTTP_VARIANT) {
  // a server for a tool that loads it over sockets: listens, then sends its port
  const { default: Fastify } = await import('fastify')
  const app = Fastify({ logger: false })
  await variants[process.env.HTTP_VARIANT](app)
  await app.listen({ host: '127.0.0.1', port: 0 })
  process.on('SIGTERM', () => process.exit(0))
  process.send(app.server.address().port)
} else if (variant) await runWorker(variant, variants[variant], request, isRight)
else await orchestrate(script, Object.keys(variants), names, REQUESTS)
