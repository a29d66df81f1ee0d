// The JSON body route's variants of in-process-json.mjs, over real sockets: each variant a server
// process pinned to core 0, autocannon here on core 1 (100 connections × pipelining 10), CPU time
// per request from /proc, interleaved rounds. For finding where the HTTP-only cost is.
//
//   pnpm build && node bench/tools/http-ab-json.mjs [variant,...]
//
// Env: COPIES (processes per variant), ROUNDS, SECONDS, SERVER_FLAGS (node flags of the servers),
// USER_ONLY (user CPU only), LOG_DIR (servers' stdout), VERBOSE (print every round's figure).
import { execFileSync, fork } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import autocannon from 'autocannon'

const variantsModule = new URL('./in-process-json.mjs', import.meta.url).pathname
const ROUNDS = Number(process.env.ROUNDS ?? 8)
const SECONDS = Number(process.env.SECONDS ?? 2)

const cpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return process.env.USER_ONLY ? Number(fields[11]) : Number(fields[11]) + Number(fields[12])
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1]

const names = process.argv[2]?.split(',') ?? []
const servers = []
for (const name of names) {
  for (let copy = 0; copy < Number(process.env.COPIES ?? 2); copy++) {
    const child = fork(variantsModule, {
      execArgv: (process.env.SERVER_FLAGS ?? '').split(' ').filter(Boolean),
      env: { ...process.env, HTTP_VARIANT: name },
      stdio: [
        'ignore',
        process.env.LOG_DIR ? openSync(`${process.env.LOG_DIR}/${servers.length}.log`, 'w') : 'ignore',
        'inherit',
        'ipc',
      ],
    })
    const port = await new Promise((resolve) => child.once('message', resolve))
    execFileSync('taskset', ['-a', '-cp', '0', String(child.pid)])
    servers.push({ name, child, port, samples: [] })
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
for (const server of servers) await load(server.port, 1)
for (let round = 0; round < ROUNDS; round++) {
  for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
    const before = cpuTicks(server.child.pid)
    const result = await load(server.port, SECONDS)
    const ticks = cpuTicks(server.child.pid) - before
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${server.name}: ${result.non2xx} non-2xx`)
    server.samples.push(((ticks * 10_000) / result.requests.total) * 1)
    if (process.env.VERBOSE) console.log(round, server.name, server.samples.at(-1).toFixed(1))
  }
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
