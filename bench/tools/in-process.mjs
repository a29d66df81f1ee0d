// Per-request CPU cost of hello routes without the network, to resolve the few hundred nanoseconds
// an HTTP run cannot: Node's own IncomingMessage and ServerResponse, on a socket that discards its
// writes, are handed to `app.routing()`. Every variant runs in processes of its own (same code,
// different processes differ by several percent), measured in interleaved rounds of CPU time.
//
//   pnpm build && node bench/tools/in-process.mjs [variant,variant,...]
//
// Plain JavaScript run on plain `node` against the built packages: under a TypeScript loader a
// Fastify hook costs microseconds more (see bench/RESULTS.md, Method).
import { fork } from 'node:child_process'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Duplex } from 'node:stream'
import { handle, weftContext } from '@weft/context'
import Fastify from 'fastify'

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
}

const PROCESSES = Number(process.env.PROCESSES ?? 3)
const ROUNDS = Number(process.env.ROUNDS ?? 12)
const REQUESTS = Number(process.env.REQUESTS ?? 40_000)

// Keeps what is written only while `written` is an array (the check of the first answer).
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
    req.method = 'GET'
    req.url = '/'
    req.headers = { host: 'localhost', accept: '*/*' }
    req.rawHeaders = ['host', 'localhost', 'accept', '*/*']
    req.complete = true
    req.push(null)
    const res = new ServerResponse(req)
    res.assignSocket(sink)
    res.on('finish', () => {
      res.detachSocket(sink)
      resolve()
    })
    app.routing(req, res)
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
  // Not app.inject(): its own request objects would make Fastify's call sites polymorphic.
  written = []
  await request(app)
  const answer = Buffer.concat(written.map((item) => Buffer.from(item))).toString()
  written = undefined
  if (!answer.startsWith('HTTP/1.1 200') || !answer.endsWith(JSON.stringify(hello()))) {
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
  // The first rounds warm the JIT up; each process's median, then the median over its processes.
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
      `${name.padEnd(48)} ${value.toFixed(0).padStart(6)} ns  ${extra >= 0 ? '+' : ''}${extra.toFixed(0).padStart(4)} ns  ` +
        `[${list.map((item) => item.toFixed(0)).join(' ')}]`,
    )
  }
}

if (process.env.IN_PROCESS_VARIANT) await worker(process.env.IN_PROCESS_VARIANT)
else await orchestrate(process.argv[2] ? process.argv[2].split(',') : Object.keys(variants))
