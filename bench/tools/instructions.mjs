// Instructions and bytes allocated per request of the in-process tools' variants: two costs that
// do not move with the machine. CPU time on this shared 2-core VM moves by ±20 % between
// processes and runs (bench/RESULTS.md); the instructions callgrind counts move by ±0.3 % from
// one process to the next (run as below), and V8's GC trace gives the bytes allocated exactly.
// `pnpm bench` counts the peer servers' routes itself (src/instructions.ts, tools/count-server.mjs);
// this tool counts the variants of one route side by side, to see whether a change makes it do less.
//
//   pnpm build && BENCH_SMOKE=1 BENCH_ONLY=http:peers-json pnpm bench  # compiles the servers the tools import
//   node bench/tools/instructions.mjs in-process-json.mjs 'variant,...'
//
// Each variant runs in a process of its own: WARMUP_REQUESTS (20,000) requests, then
// COUNT_REQUESTS (20,000) counted ones. Instructions are counted under `valgrind --tool=callgrind`
// (Debian's valgrind; about 40 s a variant), the main thread's and every thread's; bytes from
// V8's GC trace (`--trace-gc-nvp`, on for the counted requests only, between two forced full
// GCs) in a plain run. Both runs take the flags of tools/callgrind.mjs (COUNT_FLAGS to change):
// V8 single-threaded, a fixed 16 MiB semi-space, no major GC while counting; the main thread's
// count leaves out V8's compiling, as `pnpm bench` does.
// Env: COPIES (processes per variant, default 1; the median is shown), SKIP_ALLOCATION=1,
// BASELINE_TREE (for the variants that load Weft from another checkout).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { countFlags, countWithoutCompiling } from './callgrind.mjs'
import { run } from './run-command.mjs'

const tool = new URL(process.argv[2] ?? 'in-process-json.mjs', import.meta.url).pathname
const names = process.argv[3]?.split(',')
if (names === undefined) throw new Error('name the variants to count (the first is the baseline)')
const requests = Number(process.env.COUNT_REQUESTS ?? 20_000)
const copies = Number(process.env.COPIES ?? 1)
const nodeFlags = process.env.COUNT_FLAGS?.split(' ').filter(Boolean) ?? countFlags

/** Instructions per request: every thread's, and the main thread's, of one counted run. */
async function countInstructions(name) {
  const dir = mkdtempSync(join(tmpdir(), 'weft-instructions-'))
  try {
    const env = { IN_PROCESS_VARIANT: name, COUNT_REQUESTS: String(requests), UNDER_CALLGRIND: '1' }
    const valgrind = ['--tool=callgrind', '--separate-threads=yes', '--instr-atstart=no', '--smc-check=all-non-file']
    await run(
      'valgrind',
      [...valgrind, `--callgrind-out-file=${dir}/out`, '--log-file=/dev/null', process.execPath, ...nodeFlags, tool],
      env,
    )
    // the dump asked for between the two marks: one file per thread, `out.1-01` the main thread's
    const dumps = readdirSync(dir).filter((file) => file.startsWith('out.1-'))
    const total = (file) => Number(/^summary: (\d+)$/m.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? 0)
    const all = dumps.reduce((sum, file) => sum + total(file), 0)
    return { all: all / requests, main: countWithoutCompiling(join(dir, 'out.1-01')).instructions / requests }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Bytes allocated per request over the counted requests (V8's GC trace, between two full GCs). */
async function countBytes(name) {
  const out = await run(process.execPath, [...nodeFlags, '--expose-gc', tool], {
    IN_PROCESS_VARIANT: name,
    COUNT_REQUESTS: String(requests),
    COUNT_BYTES: '1',
  })
  let bytes = 0
  for (const match of out.matchAll(/ gc=\w+ .* allocated=(\d+)/g)) bytes += Number(match[1])
  return bytes / requests
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1]
const rows = []
for (const name of names) {
  const counts = []
  const bytes = []
  for (let copy = 0; copy < copies; copy++) {
    counts.push(await countInstructions(name))
    console.error(`  ${name}: ${counts.at(-1).main.toFixed(0)} instructions per request`)
    if (process.env.SKIP_ALLOCATION !== '1') bytes.push(await countBytes(name))
  }
  rows.push({ name, all: median(counts.map((c) => c.all)), main: median(counts.map((c) => c.main)), bytes })
  console.error(`counted ${name}`)
}
const [base] = rows
console.log(`per request, ${requests} requests after a warm-up (median of ${copies} process(es))`)
// The main thread's count first: with COUNT_FLAGS of other threads, theirs (V8 compiling in the
// background, GC helpers) depends on when a compilation lands.
console.log(
  `${'variant'.padEnd(52)} ${'main thread'.padStart(12)} ${'vs first'.padStart(8)} ${'all threads'.padStart(12)} ${'bytes'.padStart(8)}`,
)
for (const row of rows) {
  const bytes = row.bytes.length > 0 ? median(row.bytes).toFixed(0) : '-'
  const ratio = `${(row.main / base.main).toFixed(3)}x`
  console.log(
    `${row.name.padEnd(52)} ${row.main.toFixed(0).padStart(12)} ${ratio.padStart(8)} ${row.all.toFixed(0).padStart(12)} ${bytes.padStart(8)}`,
  )
}
