import { describe, expect, it } from 'vitest'
import type { ComparisonResult, Round, SideResult } from './http/compare.js'
import { type BenchResults, goalChecks, markdown } from './report.js'
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
  goal: 0.95,
  goalMet: true,
  goalMetByCpu: true,
}

describe('markdown', () => {
  it('names how many server processes each side ran in', () => {
    expect(markdown(run([hello], 3))).toContain('24 HTTP rounds of 1.5 s over 3 server processes per side')
    expect(markdown(run([hello], 1))).toContain('over 1 server process per side')
  })

  it('gives the middle half of the per-round ratios next to the median ratio', () => {
    const table = markdown(run([hello], 3))
    expect(table).toContain('| 0.99x (0.95–1.10) | 1.01x | ≥ 0.95x met (CPU: met) |')
  })

  it('lists an HTTP goal with both ratios', () => {
    expect(markdown(run([hello], 3))).toContain('| (b) hello | ≥ 0.95x | 0.99x | met | 1.01x | met |')
  })

  it('shows a comparison without a spread (a run from before it was recorded) with the ratio alone', () => {
    const { ratioSpread: _dropped, ...old } = hello
    expect(markdown(run([old], 3))).toContain('| 0.99x | 1.01x |')
  })
})
