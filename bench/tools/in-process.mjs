// Per-request CPU cost of hello routes without the network, to resolve the few hundred nanoseconds
// an HTTP run cannot: Node's own IncomingMessage and ServerResponse, on a socket that discards its
// writes, are handed to `app.routing()`. Every variant runs in processes of its own (same code,
// different processes differ by several percent), measured in interleaved rounds of CPU time.
//
//   pnpm build && node bench/tools/in-process.mjs [variant,variant,...]
//
// Env: BASELINE_TREE (another checkout, built, for the variant that loads Weft from there).
//
// Plain JavaScript run on plain `node` against the built packages: under a TypeScript loader a
// Fastify hook costs microseconds more (see bench/RESULTS.md, Method).
import { handle, weftContext } from '@weft/context'
import { orchestrate, routeOnce, runWorker } from './in-process-harness.mjs'

const hello = () => ({ hello: 'world' })

/** The routes compared; the first one given is the baseline. */
const variants = {
  fastify: (app) => app.get('/', async () => hello()),
  'fastify + no-op preParsing hook': (app) => {
    app.addHook('preParsing', (_request, _reply, payload, done) => done(null, payload))
    app.get('/', async () => hello())
  },
  'weftContext, plain handler': async (app) => {
    await app.register(weftContext)
    app.get('/', async () => hello())
  },
  'weftContext, plain handler touching request.ctx': async (app) => {
    await app.register(weftContext)
    app.get('/', async (request) => (request.ctx ? hello() : undefined))
  },
  'handle() + c.json()': async (app) => {
    await app.register(weftContext)
    app.get(
      '/',
      handle((c) => c.json(hello())),
    )
  },
  'handle() + c.json() as built in BASELINE_TREE': async (app) => {
    const context = await import(`${process.env.BASELINE_TREE}/packages/context/dist/index.js`)
    await app.register(context.weftContext)
    app.get(
      '/',
      context.handle((c) => c.json(hello())),
    )
  },
}

const REQUESTS = Number(process.env.REQUESTS ?? 40_000)

function request(app) {
  return routeOnce(app, (req) => {
    req.method = 'GET'
    req.url = '/'
    req.headers = { host: 'localhost', accept: '*/*' }
    req.rawHeaders = ['host', 'localhost', 'accept', '*/*']
    req.complete = true
    req.push(null)
  })
}

const isRight = (answer) => answer.startsWith('HTTP/1.1 200') && answer.endsWith(JSON.stringify(hello()))

const script = new URL(import.meta.url).pathname
const names = process.argv[2] ? process.argv[2].split(',') : Object.keys(variants)
const variant = process.env.IN_PROCESS_VARIANT
if (variant) await runWorker(variant, variants[variant], request, isRight)
else await orchestrate(script, Object.keys(variants), names, REQUESTS)
