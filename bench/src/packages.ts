import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The goal for each package's own micro-benchmark, and which of the ratios the package
 * reports it applies to (matched against their labels; the smallest match counts).
 */
export const packageGoals: Record<string, { goal: number; what: string; ratios: RegExp }> = {
  context: { goal: 2, what: 'accepts() vs negotiator', ratios: /accepts.*weft/i },
  binding: { goal: 1.5, what: 'bind().query() vs qs + validator', ratios: /^(?!.*route).*query\(\).*qs/i },
  pagination: { goal: 0.97, what: 'route with the paginate hook vs without', ratios: /route.*paginate\(\)/i },
}

/**
 * Further goals on a package's ratios, each a goal row of its own (the smallest match counts). None
 * at present: the route comparison of @weft/binding (a route validated through Weft against the
 * same route validated by Fastify's Ajv) is judged by instructions in the count step, where CPU
 * time on this machine moved by more than the difference (0.93x–1.00x for the same code).
 */
export const packageExtraGoals: Record<string, { goal: number; what: string; ratios: RegExp }[]> = {}

/** What one package's `pnpm bench` produced. */
export interface PackageBenchResult {
  package: string
  status: 'ok' | 'missing' | 'failed'
  seconds: number
  /** `packages/<pkg>/bench/results.json` as the package wrote it. */
  results?: unknown
  /** Every ratio found in the results, by a label made of the keys and names leading to it. */
  ratios: Record<string, number>
  /** The labels of the ratios the goal applies to. */
  goalRatios?: string[]
  goal?: number
  goalWhat?: string
  /** The goal's check against the smallest ratio reported, when the full run has one. */
  goalMet?: boolean
  note?: string
}

/** Packages of the workspace that declare a `bench` script. */
export function benchmarkedPackages(root: string): string[] {
  const dir = join(root, 'packages')
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'package.json')))
    .filter((name) => {
      const manifest = JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8')) as {
        scripts?: Record<string, string>
      }
      return Boolean(manifest.scripts?.bench)
    })
    .sort()
}

/** Runs `pnpm --filter @weft/<pkg> bench` and reads the results file it writes. */
export async function runPackageBench(
  root: string,
  pkg: string,
  options: { smoke: boolean; timeoutMs: number; log: (line: string) => void },
): Promise<PackageBenchResult> {
  const goal = packageGoals[pkg]
  const base: PackageBenchResult = {
    package: pkg,
    status: 'ok',
    seconds: 0,
    ratios: {},
    ...(goal ? { goal: goal.goal, goalWhat: goal.what } : {}),
  }
  const dir = join(root, 'packages', pkg)
  if (!existsSync(join(dir, 'bench', 'run.ts'))) {
    return { ...base, status: 'missing', note: 'packages/' + pkg + '/bench/run.ts does not exist yet' }
  }
  // A smoke run writes beside the committed figures, never over them.
  const resultsName = options.smoke ? 'results.smoke.json' : 'results.json'
  const resultsFile = join(dir, 'bench', resultsName)
  const started = Date.now()
  const { code, output } = await run(
    'pnpm',
    ['--filter', `@weft/${pkg}`, 'bench'],
    root,
    options.timeoutMs,
    options.log,
  )
  base.seconds = (Date.now() - started) / 1000
  if (code !== 0) {
    return { ...base, status: 'failed', note: `exit ${code}: ${output.trim().split('\n').slice(-5).join(' | ')}` }
  }
  if (!existsSync(resultsFile) || statSync(resultsFile).mtimeMs < started) {
    return { ...base, status: 'failed', note: `ran, but did not write packages/${pkg}/bench/${resultsName}` }
  }
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as unknown
  const ratios: Record<string, number> = {}
  collectRatios(results, '', ratios)
  const result: PackageBenchResult = { ...base, results, ratios }
  if (goal) {
    result.goalRatios = Object.keys(ratios).filter((label) => goal.ratios.test(label))
    const values = result.goalRatios.map((label) => ratios[label]!)
    if (values.length === 0) result.note = `no ratio matches ${goal.ratios} for the goal`
    else if (!options.smoke) result.goalMet = Math.min(...values) >= goal.goal
  }
  return result
}

/** The smallest of the ratios a package's goal applies to. */
export function goalRatio(result: PackageBenchResult): number | undefined {
  const values = (result.goalRatios ?? []).map((label) => result.ratios[label]!)
  return values.length > 0 ? Math.min(...values) : undefined
}

/**
 * Finds ratios in a package's results whatever its layout: `{ ratio }` leaves (labelled by the keys,
 * or the `group`/`case`/`name` fields, that lead to them) and `{ ratios: { label: number } }` maps.
 */
function collectRatios(value: unknown, path: string, out: Record<string, number>): void {
  if (value === null || typeof value !== 'object') return
  const join = (label: string) => (path ? `${path} › ${label}` : label)
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const fields = ['group', 'case', 'name', 'task'].map((key) => (item as Record<string, unknown> | null)?.[key])
      const label = fields.filter((field) => typeof field === 'string').join(' › ') || String(index)
      collectRatios(item, join(label), out)
    })
    return
  }
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'number' && /^ratio$/i.test(key)) out[path || key] = item
    else if (/^ratios$/i.test(key) && item && typeof item === 'object') {
      for (const [label, ratio] of Object.entries(item)) if (typeof ratio === 'number') out[join(label)] = ratio
    } else if (key !== 'results' || path) collectRatios(item, join(key), out)
    else collectRatios(item, path, out)
  }
}

function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // Its own process group, so a timeout ends pnpm and the benchmark it started together.
    const child = spawn(command, args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let output = ''
    const onData = (chunk: Buffer) => {
      const text = chunk.toString()
      output += text
      for (const line of text.split('\n')) if (line.trim()) log(`    ${line}`)
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    const timer = setTimeout(() => {
      output += `\ntimed out after ${timeoutMs} ms`
      if (child.pid) process.kill(-child.pid, 'SIGKILL')
    }, timeoutMs)
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}
