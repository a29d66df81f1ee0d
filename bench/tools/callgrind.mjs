// What the counted requests' instructions are: shared by `pnpm bench` (src/instructions.ts) and
// tools/instructions.mjs.
//
// A count of 5,000 requests is a window on a long-running server, and two kinds of V8 work land in
// it by chance, not by what a request does:
// - a major GC. Marking a heap of this size costs 100 to 150 million instructions, 20,000 to 30,000
//   a request over the window. Whether one starts inside it depended on the heap the warm-up left:
//   bare Fastify's hello route counted 87,695 to 110,388 in processes of the same code. A large
//   initial old generation keeps the major GC out of the window in every process; scavenges, which
//   grow with the bytes a request allocates, stay in (and the bytes are counted on their own).
// - compiling. With V8 single-threaded, Turbofan compiles on the main thread, and tiering up went
//   on after 20,000 requests of warm-up: 30 to 135 million instructions of compiling in a window,
//   one-time work a server does not repeat. Its inclusive cost is taken off the count.
import { execFileSync } from 'node:child_process'

/** Node flags of every counted process: V8 single-threaded, a fixed young generation, no major GC. */
export const countFlags = [
  '--no-allocation-site-pretenuring',
  '--single-threaded',
  '--min-semi-space-size=16',
  '--max-semi-space-size=16',
  '--initial-old-space-size=1024',
]

/**
 * V8's compilers, entered from the running code: Turbofan (and its on-stack replacement), Sparkplug,
 * and the lazy bytecode compiler. None calls another, so their inclusive costs add up without overlap.
 */
const compilers = [
  /^v8::internal::\(anonymous namespace\)::GetOrCompileOptimized\(/,
  /^v8::internal::\(anonymous namespace\)::CompileOptimizedOSR\(/,
  /^v8::internal::Compiler::CompileSharedWithBaseline\(/,
  /^v8::internal::Compiler::Compile\(v8::internal::Isolate\*, v8::internal::Handle<v8::internal::SharedFunctionInfo>/,
]

/**
 * The instructions of a callgrind dump (one thread's file) less what V8's compilers spent in it;
 * `compiling` is that part. Reads the dump through `callgrind_annotate`, shipped with valgrind.
 */
export function countWithoutCompiling(file) {
  const report = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 2 ** 20,
  })
  return splitCompiling(report)
}

/** The same, from the text of `callgrind_annotate --inclusive=yes` (counts right-aligned: `( 6.28%)`). */
export function splitCompiling(report) {
  const figure = (text) => Number(text.replaceAll(',', ''))
  const total = /^([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS$/m.exec(report)?.[1]
  let compiling = 0
  for (const line of report.split('\n')) {
    const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+\S*?:(.*)$/.exec(line)
    if (match !== null && compilers.some((compiler) => compiler.test(match[2]))) compiling += figure(match[1])
  }
  return { instructions: total === undefined ? Number.NaN : figure(total) - compiling, compiling }
}
