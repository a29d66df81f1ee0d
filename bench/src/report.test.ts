import { describe, expect, it } from 'vitest'
import type { ComparisonResult, Round, SideResult } from './http/compare.js'
import type { PeerRatio, PeerScenarioResult } from './http/peers.js'
import type { CountResults } from './instructions.js'
import type { PackageBenchResult } from './packages.js'
import { type BenchResults, charts, countsMarkdown, goalChecks, markdown } from './report.js'
import { benchSettings } from './settings.js'

function side(name: string, requestsPerSec: number, processes: number): SideResult {
  const round: Round = {
    process: 0,
    requestsPerSec,
    requests: requestsPerSec,
    p50Ms: 1,
    p99Ms: 2,
    meanMs: 1.2,
    errors: 0,
    non2xx: 0,
    cpuUsPerRequest: 12,
    cpuBusy: 0.99,
  }
  return {
    name,
    processes,
    rounds: [round],
    requestsPerSec,
    cpuUsPerRequest: 12,
    cpuBusy: 0.99,
    p50Ms: 1,
    p99Ms: 2,
    rssMiB: 90,
    peakRssMiB: 110,
    errors: 0,
    non2xx: 0,
  }
}

function run(http: ComparisonResult[], processes: number): BenchResults {
  const settings = { ...benchSettings({}), httpProcesses: processes }
  const partial = {
    smoke: false,
    machine: {
      node: 'v20',
      v8: '11',
      platform: 'linux',
      cpuModel: 'Test CPU',
      cpus: 2,
      memoryGiB: 24,
      date: '2026-11-21T00:00:00.000Z',
      pinning: true,
    },
    settings,
    seconds: 600,
    packages: [],
    micro: [],
    http,
  }
  return { ...partial, goals: goalChecks(partial) }
}

const hello: ComparisonResult = {
  id: 'b-context-hello',
  title: '(b) hello',
  connections: 100,
  pipelining: 10,
  baseline: side('fastify', 80_000, 3),
  candidate: side('weft', 79_000, 3),
  ratio: 0.99,
  ratioSpread: [0.95, 1.1],
  cpuRatio: 1.01,
}

describe('markdown', () => {
  it('names how many server processes each side ran in', () => {
    expect(markdown(run([hello], 3))).toContain('24 HTTP rounds of 1.5 s over 3 server processes per side')
    expect(markdown(run([hello], 1))).toContain('over 1 server process per side')
  })

  it('gives the middle half of the per-round ratios next to the median ratio, and the CPU ratio', () => {
    expect(markdown(run([hello], 3))).toContain('| 0.99x (0.95–1.10) | 1.01x |')
  })

  it('shows a comparison without a spread (a run from before it was recorded) with the ratio alone', () => {
    const { ratioSpread: _dropped, ...old } = hello
    expect(markdown(run([old], 3))).toContain('| 0.99x | 1.01x |')
  })

  it('ends with the method and how to run it again, and stays short', () => {
    const text = markdown(run([hello], 3))
    expect(text).toContain('\n## Method\n')
    expect(text).toContain('\n## Rerun\n')
    expect(text.split('\n').length).toBeLessThan(400)
  })
})

const counts: CountResults = {
  counter: 'callgrind',
  warmupRequests: 5000,
  countRequests: 5000,
  notes: [],
  rows: [
    { scenario: 'json', server: 'fastify', instructions: 88_096, bytes: 10_410 },
    { scenario: 'json', server: 'weft', instructions: 88_937, bytes: 11_501 },
    { scenario: 'json', server: 'express', instructions: 400_000, bytes: 30_000 },
    { scenario: 'json', server: 'hono', instructions: 150_000, bytes: 20_000 },
    { scenario: 'products', server: 'products-hand', instructions: 300_000, bytes: 40_000 },
    { scenario: 'products', server: 'api-a', instructions: 290_000, bytes: 41_000 },
  ],
}

describe('peer goals', () => {
  const ratio = (name: string, cpuRatio: number, required?: number): PeerRatio => ({
    name,
    baseline: 'fastify',
    candidate: 'weft',
    cpuRatio,
    cpuSpread: [cpuRatio - 0.05, cpuRatio + 0.05],
    ratio: cpuRatio - 0.01,
    spread: [cpuRatio - 0.1, cpuRatio + 0.1],
    ...(required === undefined ? {} : { required, met: cpuRatio >= required }),
  })
  const json: PeerScenarioResult = {
    id: 'peers-json',
    title: 'JSON body',
    connections: 100,
    pipelining: 10,
    sides: [{ ...side('bare Fastify', 30_000, 3), key: 'fastify' }],
    ratios: [
      ratio('peers json: Weft vs bare Fastify', 0.59),
      ratio('peers json: Weft vs Express 5', 3.2, 3),
      ratio('peers json: Weft vs Hono', 1.02, 1),
      ratio('peers json: control (bare Fastify vs itself)', 1.01),
    ],
    mismatches: [],
  }
  const withPeers = (peers: PeerScenarioResult[], withCounts?: CountResults) => {
    const base = { ...run([], 3), peers, ...(withCounts ? { counts: withCounts } : {}) }
    return { ...base, goals: goalChecks(base) }
  }

  it('judges Weft against bare Fastify by instructions, against Express 5 and Hono by CPU time', () => {
    expect(withPeers([json], counts).goals).toEqual([
      expect.objectContaining({
        name: 'peers json: Weft vs bare Fastify',
        required: 1,
        by: 'instructions',
        met: false,
      }),
      expect.objectContaining({
        name: 'API A product list vs the hand-written Fastify route',
        by: 'instructions',
        met: true,
      }),
      expect.objectContaining({
        name: 'peers json: Weft vs Express 5',
        required: 3,
        measured: 3.2,
        by: 'cpu',
        met: true,
      }),
      expect.objectContaining({ name: 'peers json: Weft vs Hono', required: 1, measured: 1.02, by: 'cpu', met: true }),
    ])
    const [fastify, products] = withPeers([json], counts).goals
    expect(fastify!.measured).toBeCloseTo(88_096 / 88_937, 6)
    expect(products!.measured).toBeCloseTo(300_000 / 290_000, 6)
  })

  it('says the instruction goal was not measured when nothing was counted (no valgrind)', () => {
    expect(withPeers([json]).goals[0]).toMatchObject({
      name: 'peers json: Weft vs bare Fastify',
      measured: undefined,
      met: undefined,
    })
  })

  it('writes a goal row with what it is judged by', () => {
    const table = markdown(withPeers([json], counts))
    expect(table).toContain('| peers json: Weft vs bare Fastify | ≥ 1x | 0.99x | instructions | **missed** |')
    expect(table).toContain(
      '| peers json: Weft vs Express 5 | ≥ 3x | 3.20x (3.15–3.25) | server CPU time (req/s: 3.19x) | met |',
    )
  })

  it('shows each CPU ratio with the middle half of its rounds, and the control beside them', () => {
    expect(markdown(withPeers([json]))).toContain(
      '| JSON body | 0.59x (0.54–0.64) | 3.20x (3.15–3.25) ≥ 3x | 1.02x (0.97–1.07) ≥ 1x | 1.01x (0.96–1.06) |',
    )
  })

  it('lists instructions and bytes per server, each peer as a ratio to Weft', () => {
    const table = markdown(withPeers([json], counts))
    expect(table).toContain('| json | Weft | 88,937 |  | 11,501 |')
    expect(table).toContain('|  | bare Fastify | 88,096 | 0.99x | 10,410 |')
    expect(table).toContain('|  | API A | 290,000 | 1.03x | 41,000 |')
    expect(table).toContain('![Peer instructions per request')
  })

  it('names the servers whose answers differ from Weft', () => {
    const table = markdown(withPeers([{ ...json, mismatches: ['Hono: header content-type: "application/json"'] }]))
    expect(table).toContain('| | answers differ: Hono: header content-type: "application/json" |')
  })

  it('leaves the measured figure out when the scenario did not run', () => {
    const goals = withPeers([{ ...json, skipped: 'failed: Weft answered 500' }]).goals
    expect(goals.find((goal) => goal.by === 'cpu')).toMatchObject({ measured: undefined })
  })
})

describe('charts', () => {
  it('draws the CPU and instruction ratios of the peers', () => {
    const base = { ...run([], 3), counts }
    const files = charts({ ...base, goals: [] }).map((chart) => chart.file)
    expect(files).toEqual(['charts/peers-instructions.svg'])
  })
})

describe('package goals', () => {
  const binding = (ratios: Record<string, number>): PackageBenchResult => ({
    package: 'binding',
    status: 'ok',
    seconds: 50,
    ratios,
    goal: 1.5,
    goalWhat: 'bind().query() vs qs + validator',
    goalRatios: ['bind().query() / (qs + Ajv)'],
    goalMet: true,
  })
  const checks = (ratios: Record<string, number>) => goalChecks({ ...run([], 3), packages: [binding(ratios)] })

  it('has no ops/s row for the route comparison: it is judged by instructions', () => {
    const rows = checks({ 'bind().query() / (qs + Ajv)': 2.4, 'route bind() / route Fastify schema': 0.93 })
    expect(rows.map((row) => row.name)).toEqual(['@weft/binding: bind().query() vs qs + validator'])
  })
})

describe('the route schema goal', () => {
  const query = (schema?: number): CountResults => ({
    ...counts,
    rows: [
      { scenario: 'query', server: 'fastify', instructions: 120_000, bytes: 9_000 },
      { scenario: 'query', server: 'weft', instructions: 100_000, bytes: 8_000 },
      ...(schema === undefined
        ? []
        : [{ scenario: 'query', server: 'weft-schema', instructions: schema, bytes: 7_000 }]),
    ],
  })
  const goal = (withCounts: CountResults) =>
    goalChecks({ ...run([], 3), counts: withCounts }).find((row) => row.name.includes('route schema'))

  it('judges the route validated through Weft against bare Fastify’s Ajv route by instructions', () => {
    expect(goal(query(96_000))).toMatchObject({ required: 1, by: 'instructions', met: true })
    expect(goal(query(96_000))!.measured).toBeCloseTo(120_000 / 96_000, 6)
    expect(goal(query(130_000))).toMatchObject({ met: false })
  })

  it('says it was not measured when the route was not counted', () => {
    expect(goal(query())).toMatchObject({ measured: undefined, met: undefined })
  })

  it('lists the route schema server under the query scenario, as bare Fastify ÷ it', () => {
    const table = countsMarkdown(query(96_000)).join('\n')
    expect(table).toContain('|  | Weft, route schema (bare Fastify ÷ it) | 96,000 | 1.25x | 7,000 |')
  })
})
