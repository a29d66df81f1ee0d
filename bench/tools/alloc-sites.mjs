// Where the bytes a route allocates per request come from, side by side for two or more variants
// of an in-process tool: V8's sampling heap profiler (every 64 bytes, objects that the scavenger or
// the mark-compactor freed included) over the counted requests, summed by allocating function.
// instructions.mjs says how many bytes; this says which function allocated them.
//
//   pnpm build && BENCH_SMOKE=1 BENCH_ONLY=http:peers-json pnpm bench  # compiles the servers the tools import
//   node bench/tools/alloc-sites.mjs in-process-json.mjs 'fastify schema.body,handle() + c.bind().json() (the peer route)'
//
// Optimized code inlines its callees, so their allocations show under the caller;
// WORKER_FLAGS=--no-turbo-inlining names each function (and shows a little more allocation: V8's
// escape analysis then removes less). Env: COUNT_REQUESTS (20,000), WARMUP_REQUESTS (20,000), TOP (30).
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const tool = new URL(process.argv[2] ?? 'in-process-json.mjs', import.meta.url).pathname
const names = process.argv[3]?.split(',')
if (names === undefined) throw new Error('name the variants to compare')
const requests = Number(process.env.COUNT_REQUESTS ?? 20_000)
const top = Number(process.env.TOP ?? 30)

/** Runs one variant with the profiler on; resolves to its profile. */
function profile(name, file) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--no-allocation-site-pretenuring', ...(process.env.WORKER_FLAGS ?? '').split(' ').filter(Boolean), tool],
      {
        env: { ...process.env, IN_PROCESS_VARIANT: name, COUNT_REQUESTS: String(requests), ALLOC_PROFILE: file },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    )
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(readFileSync(file, 'utf8'))) : reject(new Error(`${name} exited ${code}`)),
    )
  })
}

/** Bytes per request by allocating function (`name file:line`, packages shortened). */
function bytesByFunction(profile) {
  const sites = new Map()
  const walk = (node) => {
    const { functionName, url, lineNumber } = node.callFrame
    const where = url.replace(/.*node_modules\/\.pnpm\/([^/]+)\/.*/, '$1').replace(/.*\/packages\//, '@weft/')
    const site = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`
    if (node.selfSize > 0) sites.set(site, (sites.get(site) ?? 0) + node.selfSize / requests)
    for (const child of node.children) walk(child)
  }
  walk(profile.head)
  return sites
}

const dir = mkdtempSync(join(tmpdir(), 'alloc-sites-'))
try {
  const columns = []
  for (const [index, name] of names.entries()) {
    columns.push(bytesByFunction(await profile(name, join(dir, `${index}.json`))))
  }
  const total = (sites) => [...sites.values()].reduce((sum, bytes) => sum + bytes, 0)
  const all = new Set(columns.flatMap((sites) => [...sites.keys()]))
  const rows = [...all].sort(
    (a, b) => Math.max(...columns.map((s) => s.get(b) ?? 0)) - Math.max(...columns.map((s) => s.get(a) ?? 0)),
  )
  console.log(`bytes per request by allocating function (${requests} requests; sampled every 64 bytes)`)
  for (const [index, name] of names.entries()) {
    console.log(`  [${index}] ${name}: ${total(columns[index]).toFixed(0)} in all`)
  }
  for (const site of rows.slice(0, top)) {
    const figures = columns.map((sites) => (sites.get(site) ?? 0).toFixed(0).padStart(6)).join(' ')
    console.log(`${figures}  ${site}`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
