// Per-request CPU cost of the peer comparison's query binding route (`GET /search`, 10 fields)
// without the network, against bare Fastify's `schema.querystring` route: Node's own
// IncomingMessage and ServerResponse handed to `app.routing()`, each variant in processes of its
// own, in interleaved rounds of CPU time (see in-process-harness.mjs).
//
//   pnpm build && node bench/tools/in-process-query.mjs [variant,...]
//
// Env: BASELINE_TREE (another checkout, built, for the variant that loads Weft from there).
//
// (The bench run compiles bench/src/servers/peers-shared.ts, whose schema this reuses.)
import { bind } from '@weft/binding'
import { handle, weftContext } from '@weft/context'
import { Search } from '../.tmp/servers/peers-shared.js'
import { getOnce, orchestrate, runWorker } from './in-process-harness.mjs'

const url =
  '/search?q=mechanical+keyboard&category=tools&brand=acme&tags=usb-c&tags=tenkeyless&minPrice=10' +
  '&maxPrice=199.5&inStock=true&page=2&limit=20&sort=-price'

/** The routes compared; the first one given is the baseline. */
const variants = {
  'fastify schema.querystring': (app) => {
    app.get('/search', { schema: { querystring: Search } }, async (request) => request.query)
  },
  'fastify schema.querystring + weftContext registered': async (app) => {
    await app.register(weftContext)
    app.get('/search', { schema: { querystring: Search } }, async (request) => request.query)
  },
  'weftContext + plain handler + bind(request).query()': async (app) => {
    await app.register(weftContext)
    app.get('/search', async (request) => bind(request).query(Search))
  },
  'handle() + c.bind().query() (the peer route)': async (app) => {
    await app.register(weftContext)
    app.get(
      '/search',
      handle(async (c) => c.json(await c.bind().query(Search))),
    )
  },
  // the same route with @weft/context as built in another checkout (`git worktree add`, then
  // `pnpm install && pnpm build` there)
  'the peer route as built in BASELINE_TREE': async (app) => {
    const context = await import(`${process.env.BASELINE_TREE}/packages/context/dist/index.js`)
    await app.register(context.weftContext)
    app.get(
      '/search',
      context.handle(async (c) => c.json(await c.bind().query(Search))),
    )
  },
}

const REQUESTS = Number(process.env.REQUESTS ?? 20_000)

const request = (app) => getOnce(app, url)

const isRight = (answer) => answer.startsWith('HTTP/1.1 200') && answer.includes('"tags":["usb-c","tenkeyless"]')

const script = new URL(import.meta.url).pathname
const names = process.argv[2] ? process.argv[2].split(',') : Object.keys(variants)
const variant = process.env.IN_PROCESS_VARIANT
if (variant) await runWorker(variant, variants[variant], request, isRight)
else await orchestrate(script, Object.keys(variants), names, REQUESTS)
