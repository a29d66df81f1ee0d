// What the in-process tools share (in-process.mjs, in-process-json.mjs): a socket that discards
// its writes, the request/response pair handed to `app.routing()`, and the orchestration of
// variants in processes of their own, measured in interleaved rounds of CPU time.
import { execFileSync, fork, spawn } from 'node:child_process'
import { IncomingMessage, ServerResponse } from 'node:http'
import { availableParallelism } from 'node:os'
import { Duplex } from 'node:stream'
import { setFlagsFromString } from 'node:v8'
import Fastify from 'fastify'

// Env: PROCESSES (per variant), ROUNDS, BENCH_PRETENURING=1 (V8's default), WORKER_FLAGS (more node flags).
const PROCESSES = Number(process.env.PROCESSES ?? 3)
const ROUNDS = Number(process.env.ROUNDS ?? 12)

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

/**
 * One request through `app.routing()` on Node's own objects (not `app.inject()`: its request
 * objects would make Fastify's call sites polymorphic). `prepare(req)` gives the request its
 * method, URL and headers; `afterRouting(req)`, if given, feeds its body as a socket would, after
 * the headers. Resolves when the response is finished.
 */
export function routeOnce(app, prepare, afterRouting) {
  return new Promise((resolve) => {
    const req = new IncomingMessage(sink)
    prepare(req)
    const res = new ServerResponse(req)
    res.assignSocket(sink)
    res.on('finish', () => {
      res.detachSocket(sink)
      resolve()
    })
    app.routing(req, res)
    afterRouting?.(req)
  })
}

/** One `GET url` with no body through `routeOnce`, as a browser-less client sends it. */
export function getOnce(app, url) {
  return routeOnce(app, (req) => {
    req.method = 'GET'
    req.url = url
    req.headers = { host: 'localhost', accept: '*/*' }
    req.rawHeaders = ['host', 'localhost', 'accept', '*/*']
    req.complete = true
    req.push(null)
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

/**
 * A worker process: builds the app of one variant (`setup(app)` adds its routes), checks the first
 * answer with `isRight`, then runs batches when asked.
 */
export async function runWorker(name, setup, request, isRight) {
  const app = Fastify({ logger: false })
  await setup(app)
  await app.ready()
  written = []
  await request(app)
  const answer = Buffer.concat(written.map((item) => Buffer.from(item))).toString()
  written = undefined
  if (!isRight(answer)) throw new Error(`${name} answered ${answer}`)
  if (process.env.COUNT_REQUESTS) return countOnce(app, request)
  process.on('message', async (count) => {
    const start = cpuNs()
    for (let i = 0; i < count; i++) await request(app)
    process.send((cpuNs() - start) / count)
  })
  process.on('SIGTERM', () => process.exit(0)) // so WORKER_FLAGS=--cpu-prof writes its profile
  process.send('ready')
}

/**
 * One counted run (instructions.mjs): a warm-up, then `COUNT_REQUESTS` requests, with callgrind's
 * instrumentation on for them when the process runs under it (its `callgrind_control` is asked,
 * and waited for, while the event loop is idle).
 */
async function countOnce(app, request) {
  const control = (...args) =>
    process.env.UNDER_CALLGRIND
      ? new Promise((resolve) =>
          spawn('callgrind_control', [...args, String(process.pid)], { stdio: 'ignore' }).on('exit', resolve),
        )
      : undefined
  // With COUNT_BYTES (and --expose-gc): a full GC before and after the counted requests, and V8's
  // GC trace on in between only, so that its `allocated` figures add up to their allocations.
  const countBytes = process.env.COUNT_BYTES === '1'
  for (let i = 0; i < Number(process.env.WARMUP_REQUESTS ?? 20_000); i++) await request(app)
  if (countBytes) {
    globalThis.gc()
    setFlagsFromString('--trace-gc-nvp')
  }
  await control('--instr=on')
  // With ALLOC_PROFILE (a file): V8's sampling heap profile of the counted requests (alloc-sites.mjs)
  let session
  if (process.env.ALLOC_PROFILE) {
    const { Session } = await import('node:inspector/promises')
    session = new Session()
    session.connect()
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 64,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    })
  }
  for (let i = 0; i < Number(process.env.COUNT_REQUESTS); i++) await request(app)
  if (session) {
    const { profile } = await session.post('HeapProfiler.stopSampling')
    const { writeFileSync } = await import('node:fs')
    writeFileSync(process.env.ALLOC_PROFILE, JSON.stringify(profile))
  }
  await control('--dump')
  if (countBytes) {
    globalThis.gc()
    setFlagsFromString('--no-trace-gc-nvp')
  }
  process.exit(0)
}

/** Forks `script` once per variant and copy (`IN_PROCESS_VARIANT`), measures, prints the table. */
export async function orchestrate(script, known, names, requests) {
  const unknown = names.filter((name) => !known.includes(name))
  if (unknown.length > 0) throw new Error(`unknown variants: ${unknown.join(', ')}; known: ${known}`)
  const workers = []
  // one copy of each variant in turn, in alternating order: the first processes started tend to
  // run slowest, and a variant whose copies all started first would pay for it
  for (let copy = 0; copy < PROCESSES; copy++) {
    for (const name of copy % 2 === 0 ? names : [...names].reverse()) {
      const child = fork(script, {
        env: { ...process.env, IN_PROCESS_VARIANT: name },
        // as the bench's servers run (bench/src/http/server-process.ts: V8's pretenuring flips at random)
        execArgv: [
          ...(process.env.BENCH_PRETENURING === '1' ? [] : ['--no-allocation-site-pretenuring']),
          ...(process.env.WORKER_FLAGS ?? '').split(' ').filter(Boolean),
        ],
      })
      await new Promise((resolve) => child.once('message', resolve))
      // one core for every worker (they run one at a time): unpinned, identical workers measured
      // up to 30 % apart, pinned 2 %
      execFileSync('taskset', ['-a', '-p', '-c', String(availableParallelism() - 1), String(child.pid)], {
        stdio: 'ignore',
      })
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
      worker.samples.push(await ask(worker.child, requests))
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
      `${name.padEnd(48)} ${value.toFixed(0).padStart(6)} ns  ${extra >= 0 ? '+' : ''}${extra.toFixed(0).padStart(5)} ns  ` +
        `[${list.map((item) => item.toFixed(0)).join(' ')}]`,
    )
  }
}
