// Counts what one benchmark server costs per request, route by route, without sockets: imports a
// compiled server script (bench/.tmp/servers/<name>.js, which leaves its listening server where
// this finds it: src/servers/serve.ts), then for each scenario hands requests straight to the
// server's `request` listener on Node's own IncomingMessage and ServerResponse, over a socket that
// discards its writes. The same path for every framework (Fastify's, Express's and
// @hono/node-server's listeners), minus Node's HTTP parser, which all of them share.
//
// Run by `pnpm bench` (src/instructions.ts), under `valgrind --tool=callgrind` to count
// instructions and in a plain run with V8's GC trace to count bytes allocated. Env:
//   SERVER_SCRIPT   the compiled server to import
//   SCENARIOS       JSON list of { id, method, path, headers, body }
//   WARMUP_REQUESTS requests before counting, per scenario (default 2,000)
//   COUNT_REQUESTS  counted requests per scenario (default 2,000)
//   UNDER_CALLGRIND=1  turn callgrind's instrumentation on for the counted requests and dump after
//                      each scenario (src/instructions.ts gives one scenario per process: see there)
//   COUNT_BYTES=1   (with --expose-gc) a full GC around the counted requests, V8's GC trace on
//                   between them only; every scenario's trace is printed between BEGIN and END lines
import { spawn } from 'node:child_process'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Duplex } from 'node:stream'
import { setFlagsFromString } from 'node:v8'

const scenarios = JSON.parse(process.env.SCENARIOS ?? '[]')
const warmup = Number(process.env.WARMUP_REQUESTS ?? 2_000)
const counted = Number(process.env.COUNT_REQUESTS ?? 2_000)
const underCallgrind = process.env.UNDER_CALLGRIND === '1'
const countBytes = process.env.COUNT_BYTES === '1'

// The server's READY line is for the orchestrator of the HTTP runs, not for this one's reader.
const write = process.stdout.write.bind(process.stdout)
process.stdout.write = (chunk, ...rest) => (String(chunk).startsWith('READY ') ? true : write(chunk, ...rest))
await import(process.env.SERVER_SCRIPT)
const server = globalThis[Symbol.for('weft.bench.server')]
if (!server) throw new Error(`${process.env.SERVER_SCRIPT} did not hand its server over (src/servers/serve.ts)`)
const listener = server.listeners('request')[0]

let written
const sink = new Duplex({
  write: (chunk, _encoding, callback) => {
    written?.push(Buffer.from(chunk))
    callback()
  },
  writev: (chunks, callback) => {
    written?.push(...chunks.map((item) => Buffer.from(item.chunk)))
    callback()
  },
  read() {},
})
sink.remoteAddress = '127.0.0.1'
sink.remotePort = 50000

/** Answers outside 2xx (every counted one must succeed, as the first did). */
let failed = 0

/** One request of `scenario` through the server's listener; resolves when the answer is finished. */
function once(scenario, body) {
  return new Promise((resolve) => {
    const req = new IncomingMessage(sink)
    req.method = scenario.method ?? 'GET'
    req.url = scenario.path
    req.httpVersion = '1.1'
    req.httpVersionMajor = 1
    req.httpVersionMinor = 1
    const headers = { host: 'localhost', accept: '*/*', ...scenario.headers }
    if (body) headers['content-length'] = String(body.length)
    req.headers = headers
    req.rawHeaders = Object.entries(headers).flat()
    const res = new ServerResponse(req)
    res.assignSocket(sink)
    res.on('finish', () => {
      res.detachSocket(sink)
      if (res.statusCode < 200 || res.statusCode >= 300) failed++
      resolve()
    })
    listener(req, res)
    if (body) {
      // the body arrives after the headers, as from a socket
      setImmediate(() => {
        req.push(Buffer.from(body))
        req.complete = true
        req.push(null)
      })
    } else {
      req.complete = true
      req.push(null)
    }
  })
}

const control = (...args) =>
  underCallgrind
    ? new Promise((resolve) =>
        spawn('callgrind_control', [...args, String(process.pid)], { stdio: 'ignore' }).on('exit', resolve),
      )
    : undefined

for (const scenario of scenarios) {
  const body = scenario.body === undefined ? undefined : Buffer.from(scenario.body)
  written = []
  await once(scenario, body)
  const answer = Buffer.concat(written).toString()
  written = undefined
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])
  if (!(status >= 200 && status < 300)) {
    throw new Error(`${process.env.SERVER_SCRIPT} answered ${scenario.id} with ${answer.slice(0, 300)}`)
  }
  for (let i = 0; i < warmup; i++) await once(scenario, body)
  if (countBytes) {
    globalThis.gc()
    write(`BEGIN ${scenario.id}\n`)
    setFlagsFromString('--trace-gc-nvp')
  }
  await control('--instr=on')
  for (let i = 0; i < counted; i++) await once(scenario, body)
  await control('--dump')
  await control('--instr=off')
  if (countBytes) {
    globalThis.gc()
    setFlagsFromString('--no-trace-gc-nvp')
    write(`END ${scenario.id}\n`)
  }
  if (failed > 0) throw new Error(`${process.env.SERVER_SCRIPT}: ${failed} answers to ${scenario.id} were not 2xx`)
}
process.exit(0)
