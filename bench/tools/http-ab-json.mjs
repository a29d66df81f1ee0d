// The JSON body route's variants of in-process-json.mjs, over real sockets: each variant a server
// process pinned to core 0, autocannon here on core 1 (100 connections × pipelining 10), CPU time
// per request from /proc, interleaved rounds. For finding where the HTTP-only cost is.
//
//   pnpm build && node bench/tools/http-ab-json.mjs [variant,...]
//
// Env: COPIES (processes per variant), ROUNDS, SECONDS, SERVER_FLAGS (more node flags of the
// servers), BENCH_PRETENURING=1 (V8's default, as the bench's servers take it), VARIANTS_MODULE
// (another module of variants, e.g. young-generation-variants.mjs), USER_ONLY (user CPU only),
// LOG_DIR (servers' stdout), VERBOSE (print every round's figure).
//
// Each process's user and system time (and the part of its threads other than the main one), minor
// page faults and context switches per request are printed too: a process can settle in a slower
// state of its own (bench/RESULTS.md), and the median hides which one did.
import { execFileSync, fork } from 'node:child_process'
import { openSync, readdirSync, readFileSync } from 'node:fs'
import autocannon from 'autocannon'

const variantsModule = process.env.VARIANTS_MODULE ?? new URL('./in-process-json.mjs', import.meta.url).pathname
const ROUNDS = Number(process.env.ROUNDS ?? 8)
const SECONDS = Number(process.env.SECONDS ?? 2)

/** Ticks of user and system CPU time and minor page faults of a process, from /proc. */
const usage = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ').map(Number)
  return { user: fields[11], system: fields[12], faults: fields[7] }
}
/** Context switches (voluntary, involuntary) of all of a process's threads, and its threads' CPU ticks but the main one's. */
const threads = (pid) => {
  let voluntary = 0
  let involuntary = 0
  let helpers = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8')
    voluntary += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)[1])
    involuntary += Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(status)[1])
    if (tid !== String(pid)) {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ').map(Number)
      helpers += fields[11] + fields[12]
    }
  }
  return { voluntary, involuntary, helpers }
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1]

const names = process.argv[2]?.split(',') ?? []
const servers = []
for (const name of names) {
  for (let copy = 0; copy < Number(process.env.COPIES ?? 2); copy++) {
    const child = fork(variantsModule, {
      // as the bench's servers run (bench/src/http/server-process.ts: V8's pretenuring flips at random)
      execArgv: [
        ...(process.env.BENCH_PRETENURING === '1' ? [] : ['--no-allocation-site-pretenuring']),
        ...(process.env.SERVER_FLAGS ?? '').split(' ').filter(Boolean),
      ],
      env: { ...process.env, HTTP_VARIANT: name },
      stdio: [
        'ignore',
        process.env.LOG_DIR ? openSync(`${process.env.LOG_DIR}/${servers.length}.log`, 'w') : 'ignore',
        'inherit',
        'ipc',
      ],
    })
    // a server that exits before it listens ends the run, and takes the started ones with it
    const port = await new Promise((resolve, reject) => {
      child.once('message', resolve)
      child.once('exit', (code) => reject(new Error(`${name}: the server exited (${code}) before it listened`)))
    }).catch((error) => {
      for (const server of servers) server.child.kill()
      throw error
    })
    execFileSync('taskset', ['-a', '-cp', '0', String(child.pid)])
    servers.push({ name, child, port, samples: [], details: [] })
  }
}
execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)])
const { itemBody } = await import('../.tmp/servers/peers-shared.js')
const load = (port, seconds) =>
  autocannon({
    url: `http://127.0.0.1:${port}/items`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: itemBody,
    connections: 100,
    pipelining: 10,
    duration: seconds,
  })
// PRELOAD: first load each server with the peers' hello, negotiation and query routes, as the full
// peers run does before its JSON scenario (only for variants that serve them: the peer servers)
if (process.env.PRELOAD) {
  const chromeAccept =
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'
  const paths = [
    '/hello',
    '/negotiate',
    '/search?q=mechanical+keyboard&category=tools&brand=acme&tags=usb-c&tags=tenkeyless&minPrice=10&maxPrice=199.5&inStock=true&page=2&limit=20&sort=-price',
  ]
  for (const server of servers) {
    for (const path of paths) {
      const result = await autocannon({
        url: `http://127.0.0.1:${server.port}${path}`,
        headers: { accept: chromeAccept },
        connections: 100,
        pipelining: 10,
        duration: Number(process.env.PRELOAD),
      })
      if (result.non2xx > 0) throw new Error(`${server.name}: ${path} answered non-2xx`)
    }
  }
}
for (const server of servers) await load(server.port, 1)
for (let round = 0; round < ROUNDS; round++) {
  for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
    const before = { ...usage(server.child.pid), ...threads(server.child.pid) }
    const result = await load(server.port, SECONDS)
    const after = { ...usage(server.child.pid), ...threads(server.child.pid) }
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${server.name}: ${result.non2xx} non-2xx`)
    // a tick is 10 ms: µs per request
    const perRequest = (key, scale = 10_000) => ((after[key] - before[key]) * scale) / result.requests.total
    const detail = {
      user: perRequest('user'),
      system: perRequest('system'),
      faults: perRequest('faults', 1),
      helpers: perRequest('helpers'),
      voluntary: perRequest('voluntary', 1000),
      involuntary: perRequest('involuntary', 1000),
    }
    server.details.push(detail)
    server.samples.push(process.env.USER_ONLY ? detail.user : detail.user + detail.system)
    if (process.env.VERBOSE) console.log(round, server.name, server.samples.at(-1).toFixed(1))
  }
}
console.log(
  'per process (median of rounds): user + system µs (of which other threads), minor page faults, and context switches per 1,000 requests (voluntary/involuntary)',
)
for (const server of servers) {
  const of = (key) => median(server.details.slice(1).map((item) => item[key]))
  console.log(
    `  ${server.name.padEnd(46)} pid ${server.child.pid}: ${of('user').toFixed(1)} + ${of('system').toFixed(1)} µs (${of('helpers').toFixed(1)}), ${of('faults').toFixed(2)} faults, ${of('voluntary').toFixed(1)}/${of('involuntary').toFixed(1)} switches`,
  )
}
const per = new Map()
for (const server of servers) {
  per.set(server.name, [...(per.get(server.name) ?? []), median(server.samples.slice(1))])
  server.child.kill()
  await new Promise((resolve) => server.child.once('exit', resolve))
}
const base = median(per.get(names[0]))
console.log('CPU µs per request over HTTP (median of rounds; per process in brackets)')
for (const [name, list] of per) {
  const value = median(list)
  console.log(
    `${name.padEnd(48)} ${value.toFixed(1).padStart(6)} µs  ${(base / value).toFixed(2)}x  [${list.map((v) => v.toFixed(1)).join(' ')}]`,
  )
}
process.exit(0)
