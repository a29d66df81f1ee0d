// Summarises a V8 CPU profile (`--cpu-prof`, e.g. from `BENCH_PROFILE=1 pnpm bench`): the functions
// with the most self time, and the share of time spent under each package. Usage:
//   node --import tsx src/profile-summary.ts bench/profiles/<name>.cpuprofile [top]
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
export interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** Where a script URL lives: `fastify`, `@weft/context`, `node:internal`, `(program)`... */
function owner(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)'
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pnpm) return pnpm[1]!
  const workspace = /\/(packages|apps)\/([^/]+)\//.exec(url)
  if (workspace) return workspace[1] === 'packages' ? `@weft/${workspace[2]}` : `apps/${workspace[2]}`
  if (url.startsWith('node:')) return 'node:internal'
  if (url.includes('/bench/src/')) return 'bench'
  return url
}

/** Self time per function and per owner, in milliseconds. */
export function summarise(profile: Profile, top = 25) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<number, number>()
  profile.samples.forEach((id, index) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000)
  })
  const total = [...self.values()].reduce((sum, value) => sum + value, 0)
  const functions = new Map<string, number>()
  const owners = new Map<string, number>()
  for (const [id, ms] of self) {
    const { callFrame } = byId.get(id)!
    const file = callFrame.url.split('/').slice(-2).join('/')
    const key = `${callFrame.functionName || '(anonymous)'} ${file}:${callFrame.lineNumber + 1}`
    functions.set(key, (functions.get(key) ?? 0) + ms)
    const who = owner(callFrame.url, callFrame.functionName)
    owners.set(who, (owners.get(who) ?? 0) + ms)
  }
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top)
  return { totalMs: total, functions: sorted(functions), owners: sorted(owners) }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, top] = process.argv.slice(2)
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]')
  const summary = summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(top ?? 25))
  const pct = (ms: number) => `${((ms / summary.totalMs) * 100).toFixed(1)}%`
  console.log(`total ${Math.round(summary.totalMs)} ms\n\nby owner (self time):`)
  for (const [name, ms] of summary.owners) console.log(`  ${pct(ms).padStart(6)}  ${name}`)
  console.log('\nby function (self time):')
  for (const [name, ms] of summary.functions) console.log(`  ${pct(ms).padStart(6)}  ${name}`)
}
