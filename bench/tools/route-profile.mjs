// Where two in-process variants' instructions per request differ, function by function: each
// variant is counted under callgrind as instructions.mjs counts it, with V8's perf map on, so that
// JIT-compiled JavaScript is named (`f0 :34:12` is the compiled body decoder, `validate10` Ajv's)
// next to V8's builtins and runtime functions (`Builtins_StringPrototypeIsWellFormed`, ...).
// Exclusive counts: a function's own instructions, not those of what it calls.
//
//   pnpm build && BENCH_SMOKE=1 BENCH_ONLY=http:peers-json pnpm bench  # compiles the servers the tools import
//   node bench/tools/route-profile.mjs in-process-json.mjs 'fastify schema.body' 'handle() + c.bind().json() (the peer route)'
//
// Env: COUNT_REQUESTS (20,000), ROWS (the rows printed, largest differences first; default 50).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { countFlags } from './callgrind.mjs'
import { run } from './run-command.mjs'

const tool = new URL(process.argv[2] ?? 'in-process-json.mjs', import.meta.url).pathname
const variants = process.argv.slice(3)
if (variants.length !== 2) throw new Error('name two variants: the baseline, then the one compared with it')
const requests = Number(process.env.COUNT_REQUESTS ?? 20_000)

/** V8's perf map of a process: JIT code ranges and their names, sorted by address. */
function readPerfMap(pid) {
  const ranges = readFileSync(`/tmp/perf-${pid}.map`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, size, ...name] = line.split(' ')
      return {
        start: Number.parseInt(start, 16),
        end: Number.parseInt(start, 16) + Number.parseInt(size, 16),
        name: name.join(' '),
      }
    })
  return ranges.sort((a, b) => a.start - b.start)
}

function nameAt(ranges, address) {
  let low = 0
  let high = ranges.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    const range = ranges[middle]
    if (address < range.start) high = middle - 1
    else if (address >= range.end) low = middle + 1
    else
      return `JIT ${range.name.replace(/^JS:[*~^]?/, '').replace(/\S*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')}`
  }
  return 'JIT (unnamed)'
}

/** Instructions per request of one variant, by function (main thread). */
async function profile(variant) {
  const dir = mkdtempSync(join(tmpdir(), 'weft-route-profile-'))
  try {
    const flags = ['--perf-basic-prof', '--logfile=/dev/null', '--no-logfile-per-isolate', ...countFlags]
    const valgrind = ['--tool=callgrind', '--separate-threads=yes', '--instr-atstart=no', '--smc-check=all-non-file']
    await run(
      'valgrind',
      [...valgrind, `--callgrind-out-file=${dir}/out`, '--log-file=/dev/null', process.execPath, ...flags, tool],
      {
        IN_PROCESS_VARIANT: variant,
        COUNT_REQUESTS: String(requests),
        UNDER_CALLGRIND: '1',
      },
    )
    const dump = readdirSync(dir).find((file) => file.endsWith('.1-01'))
    const pid = /^pid: (\d+)$/m.exec(readFileSync(join(dir, dump), 'utf8'))[1]
    const ranges = readPerfMap(pid)
    rmSync(`/tmp/perf-${pid}.map`, { force: true })
    const annotated = await run('callgrind_annotate', ['--threshold=100', join(dir, dump)], {})
    const costs = new Map()
    for (const line of annotated.split('\n')) {
      const match = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$/.exec(line)
      if (match === null) continue
      let name = match[2].replace(/\s*\[.*\]$/, '').trim()
      const jit = /^\?\?\?:0x([0-9a-f]+)$/.exec(name)
      if (jit !== null) name = nameAt(ranges, Number.parseInt(jit[1], 16))
      costs.set(name, (costs.get(name) ?? 0) + Number(match[1].replaceAll(',', '')) / requests)
    }
    return costs
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const [base, other] = [await profile(variants[0]), await profile(variants[1])]
const names = [...new Set([...base.keys(), ...other.keys()])]
const difference = (name) => (other.get(name) ?? 0) - (base.get(name) ?? 0)
names.sort((a, b) => Math.abs(difference(b)) - Math.abs(difference(a)))
const figure = (value) => String(Math.round(value)).padStart(8)
console.log(
  `${'base'.padStart(8)}${'other'.padStart(8)}${'diff'.padStart(8)}  function (instructions per request, main thread)`,
)
for (const name of names.slice(0, Number(process.env.ROWS ?? 50))) {
  const diff = Math.round(difference(name))
  const signed = `${diff >= 0 ? '+' : '-'}${Math.abs(diff)}`.padStart(8)
  console.log(`${figure(base.get(name) ?? 0)}${figure(other.get(name) ?? 0)}${signed}  ${name.slice(0, 120)}`)
}
