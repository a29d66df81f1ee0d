// Per-request CPU cost of the peer comparison's JSON body route (`POST /items`, 10 fields) without
// the network, split into what each Weft layer adds: Node's own IncomingMessage (fed the body
// through `push`, as a socket would) and ServerResponse on a socket that discards its writes are
// handed to `app.routing()`; each variant runs in processes of its own, in interleaved rounds of
// CPU time (see in-process.mjs for why).
//
//   pnpm build && BENCH_ONLY=http:peers-json pnpm bench && node bench/tools/in-process-json.mjs [variant,...]
//
// (The bench run compiles bench/src/servers/peers-shared.ts, whose schema this reuses.)
import { fork } from 'node:child_process'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Duplex } from 'node:stream'
import { bind, weftBinding } from '@weft/binding'
import { handle, weftContext } from '@weft/context'
import Fastify from 'fastify'
import { Item, itemBody } from '../.tmp/servers/peers-shared.js'

const body = Buffer.from(itemBody)

/** The routes compared; the first one given is the baseline. */
const variants = {
  'fastify schema.body': (app) => {
    app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
  },
  'fastify schema.body + no-op preParsing hook': (app) => {
    app.addHook('preParsing', (_request, _reply, payload, done) => done(null, payload))
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
  'handle() + c.bind().json() (the peer route)': async (app) => {
    await app.register(weftContext)
    await app.register(weftBinding)
    app.post(
      '/items',
      handle(async (c) => c.status(201).json(await c.bind().json(Item))),
    )
  },
}

const PROCESSES = Number(process.env.PROCESSES ?? 3)
const ROUNDS = Number(process.env.ROUNDS ?? 12)
const REQUESTS = Number(process.env.REQUESTS ?? 20_000)

let written
const sink = new Duplex({
  write: (chunk, _encoding, callback) => {
    written?.push(chunk)
    callback()
  },
  writev: (chunks, callback) => {
    written?.push(...chunks.map((item) => item.chunk))
    callback()
  },
  read() {},
})
sink.remoteAddress = '127.0.0.1'

function request(app) {
  return new Promise((resolve) => {
    const req = new IncomingMessage(sink)
    req.method = 'POST'
    req.url = '/items'
    req.headers = { host: 'localhost', 'content-type': 'application/json', 'content-length': String(body.length) }
    req.rawHeaders = ['host', 'localhost', 'content-type', 'application/json', 'content-length', String(body.length)]
    const res = new ServerResponse(req)
    res.assignSocket(sink)
    res.on('finish', () => {
      res.detachSocket(sink)
      resolve()
    })
    app.routing(req, res)
    // the body arrives after the headers, as from a socket
    setImmediate(() => {
      req.push(Buffer.from(body))
      req.complete = true
      req.push(null)
    })
  })
}

const cpuNs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) * 1000
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[sorted.length >> 1]
}

async function worker(name) {
  const app = Fastify({ logger: false })
  await variants[name](app)
  await app.ready()
  written = []
  await request(app)
  const answer = Buffer.concat(written.map((item) => Buffer.from(item))).toString()
  written = undefined
  if (!answer.startsWith('HTTP/1.1 201') || !answer.endsWith(JSON.stringify(JSON.parse(itemBody)))) {
    throw new Error(`${name} answered ${answer}`)
  }
  process.on('message', async (count) => {
    const start = cpuNs()
    for (let i = 0; i < count; i++) await request(app)
    process.send((cpuNs() - start) / count)
  })
  process.send('ready')
}

async function orchestrate(names) {
  const unknown = names.filter((name) => !(name in variants))
  if (unknown.length > 0) throw new Error(`unknown variants: ${unknown.join(', ')}; known: ${Object.keys(variants)}`)
  const workers = []
  for (const name of names) {
    for (let copy = 0; copy < PROCESSES; copy++) {
      const child = fork(new URL(import.meta.url).pathname, { env: { ...process.env, IN_PROCESS_VARIANT: name } })
      await new Promise((resolve) => child.once('message', resolve))
      workers.push({ name, child, samples: [] })
    }
  }
  const ask = (child, count) =>
    new Promise((resolve) => {
      child.once('message', resolve)
      child.send(count)
    })
  for (let round = 0; round < ROUNDS; round++) {
    for (const worker of round % 2 === 0 ? workers : [...workers].reverse()) {
      worker.samples.push(await ask(worker.child, REQUESTS))
    }
  }
  const perName = new Map()
  for (const worker of workers) {
    const list = perName.get(worker.name) ?? []
    list.push(median(worker.samples.slice(Math.min(4, ROUNDS - 1))))
    perName.set(worker.name, list)
    worker.child.kill()
  }
  const baseline = median(perName.get(names[0]))
  console.log(`CPU ns per request (median of ${PROCESSES} processes; each process's figures in brackets)`)
  for (const [name, list] of perName) {
    const value = median(list)
    const extra = value - baseline
    console.log(
      `${name.padEnd(48)} ${value.toFixed(0).padStart(6)} ns  ${extra >= 0 ? '+' : ''}${extra.toFixed(0).padStart(5)} ns  ` +
        `[${list.map((item) => item.toFixed(0)).join(' ')}]`,
    )
  }
}

if (process.env.HTTP_VARIANT) {
  // a server for http-ab-json.mjs: listens, then sends its port
  const app = Fastify({ logger: false })
  await variants[process.env.HTTP_VARIANT](app)
  await app.listen({ host: '127.0.0.1', port: 0 })
  process.on('SIGTERM', () => process.exit(0)) // so --cpu-prof writes its profile
  process.send(app.server.address().port)
} else if (process.env.IN_PROCESS_VARIANT) await worker(process.env.IN_PROCESS_VARIANT)
else await orchestrate(process.argv[2] ? process.argv[2].split(',') : Object.keys(variants))
