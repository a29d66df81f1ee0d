// The peer comparison: the same five routes on bare Fastify 5, Weft, Express 5 and Hono 4 (and bare
// Fastify again, as the control), each framework in its own server processes (src/servers/peers-*.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { type Profile, summarise as summariseProfile } from '../profile-summary.js'
import { itemBody } from '../servers/peers-shared.js'
import type { BenchSettings } from '../settings.js'
import { selected } from '../settings.js'
import { median, quartiles, roundRatios } from '../stats.js'
import { type Answer, answerDifference, fetchAnswer } from './answers.js'
import {
  type CompareContext,
  type Instance,
  type Round,
  type RunningSide,
  type SideResult,
  startSide,
  summarise,
} from './compare.js'
import { answerLength, pipelinedLoad, requestBytes } from './pipelined-load.js'
import type { ServerProcess } from './server-process.js'

/** One scenario: a request every peer answers with the same bytes. */
export interface PeerScenario {
  id: string
  title: string
  method?: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
}

/** Chrome 131's Accept for a page load. */
export const chromeAccept =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'

export const peerScenarios: PeerScenario[] = [
  { id: 'hello', title: 'hello', path: '/hello' },
  { id: 'negotiation', title: "negotiation (Chrome's Accept)", path: '/negotiate', headers: { accept: chromeAccept } },
  {
    id: 'query',
    title: 'query binding (10 fields)',
    path: '/search?q=mechanical+keyboard&category=tools&brand=acme&tags=usb-c&tags=tenkeyless&minPrice=10&maxPrice=199.5&inStock=true&page=2&limit=20&sort=-price',
  },
  {
    id: 'json',
    title: 'JSON body (10 fields, 201)',
    method: 'POST',
    path: '/items',
    headers: { 'content-type': 'application/json' },
    body: itemBody,
  },
  { id: 'pagination', title: 'pagination (10,000 rows, links)', path: '/products?page=3&limit=20&sort=-price' },
]

/** The servers, in the order of the table; Weft is every ratio's candidate. */
export const peers = [
  { key: 'fastify', name: 'bare Fastify', script: 'peers-fastify' },
  { key: 'weft', name: 'Weft', script: 'peers-weft' },
  { key: 'express', name: 'Express 5', script: 'peers-express' },
  { key: 'hono', name: 'Hono', script: 'peers-hono' },
  { key: 'control', name: 'bare Fastify (control)', script: 'peers-fastify' },
] as const
export type PeerKey = (typeof peers)[number]['key']

/**
 * Weft's CPU time per request against each peer's (peer ÷ Weft), and the goals judged by it. Against
 * bare Fastify the gate is instructions per request (src/instructions.ts), which the shared machine
 * does not move; the CPU ratio is shown beside it.
 */
export const peerGoals: readonly { peer: PeerKey; name: string; required?: number }[] = [
  { peer: 'fastify', name: 'bare Fastify' },
  { peer: 'express', name: 'Express 5', required: 3.0 },
  { peer: 'hono', name: 'Hono', required: 1.0 },
]

/**
 * The servers loaded together, one ratio each: Weft with every peer of the goals, and the control
 * with bare Fastify. Loaded one after the other, two rounds of the same server 1.5 s apart differed
 * by up to 1.4x on this shared machine (its neighbours come and go within a second), and so did the
 * ratios; loaded at once, on the same core, a pair sees the same machine: bare Fastify against
 * itself measured 0.998x and 1.001x, its rounds within ±2 % (bench/RESULTS.md).
 */
export const peerPairs: readonly { baseline: PeerKey; candidate: PeerKey; required?: number; name: string }[] = [
  ...peerGoals.map((goal) => ({
    baseline: goal.peer,
    candidate: 'weft' as const,
    ...(goal.required === undefined ? {} : { required: goal.required }),
    name: `Weft vs ${goal.name}`,
  })),
  { baseline: 'fastify', candidate: 'control', name: 'control (bare Fastify vs itself)' },
]

/** Weft (or, for the control, the second bare Fastify) against one peer, over paired rounds. */
export interface PeerRatio {
  /** `peers <scenario>: Weft vs <peer>`, or `... control vs bare Fastify`. */
  name: string
  baseline: PeerKey
  candidate: PeerKey
  /** Median over rounds of baseline ÷ candidate CPU µs per request (above 1: the candidate costs less). */
  cpuRatio: number
  /** Middle half of the per-round CPU ratios. */
  cpuSpread: [number, number]
  /** Median over rounds of candidate ÷ baseline req/s, and its middle half. */
  ratio: number
  spread: [number, number]
  required?: number
  /** By CPU time; undefined in the smoke form. */
  met?: boolean
}

export interface PeerScenarioResult {
  id: string
  title: string
  connections: number
  pipelining: number
  sides: (SideResult & { key: PeerKey })[]
  ratios: PeerRatio[]
  /** Answers that differ from Weft's, found before measuring. */
  mismatches: string[]
  skipped?: string
  /** `BENCH_PROFILE=1`: each server's self time by owner (package, node internals, GC), in % of the
   *  profile without idle time (start-up included: the processes served this scenario only). */
  profiles?: { server: string; owners: [string, number][] }[]
}

const peerLoad = { connections: 100, pipelining: 10 }
/** The smoke form only runs the code paths: a light load, so a slow server drains its queue fast. */
const smokeLoad = { connections: 4, pipelining: 1 }

/** The scenarios `BENCH_ONLY` selects (`http:peers` runs them all, `http:peers-json` one). */
export function selectedPeerScenarios(settings: BenchSettings): PeerScenario[] {
  return peerScenarios.filter((scenario) => selected(settings, `http:peers-${scenario.id}`))
}

/**
 * Starts every peer's processes once, then per scenario: checks every process answers like Weft,
 * warms each up, and measures them in rounds. In round `r` each pair of {@link peerPairs} is loaded
 * at once, process `r % processes` of each of its two servers, the pairs in an order rotated by
 * `r`: the two servers of a ratio share the core at the same moments, so the shared machine's
 * drift touches both alike.
 */
export async function comparePeers(scenarios: PeerScenario[], context: CompareContext): Promise<PeerScenarioResult[]> {
  if (!context.profileDir) return runPeers(scenarios, 'peers', context)
  // Profiled: fresh processes per scenario, so each profile holds one scenario's requests.
  const results: PeerScenarioResult[] = []
  for (const scenario of scenarios) {
    const [result] = await runPeers([scenario], `peers-${scenario.id}`, context)
    result!.profiles = peers.map((peer) => ({
      server: peer.name,
      owners: ownerShares(`${context.profileDir}/peers-${scenario.id}/${peer.name.replace(/[^\w.-]+/g, '_')}`),
    }))
    for (const item of result!.profiles) {
      context.log(
        `  profile ${item.server}: ${item.owners.map(([name, share]) => `${name} ${share.toFixed(1)}%`).join(', ')}`,
      )
    }
    results.push(result!)
  }
  return results
}

/**
 * Self time by owner of the main-thread profiles of a server's processes (`<dir>_1`, `<dir>_2`,
 * ...; idle left out), largest first.
 */
function ownerShares(dir: string): [string, number][] {
  const totals = new Map<string, number>()
  let busyMs = 0
  for (let n = 1; existsSync(`${dir}_${n}`); n++) {
    const file = readdirSync(`${dir}_${n}`).find((name) => /^CPU\..*\.0\.\d+\.cpuprofile$/.test(name))
    if (!file) continue
    try {
      const summary = summariseProfile(JSON.parse(readFileSync(`${dir}_${n}/${file}`, 'utf8')) as Profile, 12)
      for (const [name, ms] of summary.owners) {
        if (name === '(idle)') continue
        totals.set(name, (totals.get(name) ?? 0) + ms)
        busyMs += ms
      }
    } catch {
      // a profile cut short (the process was killed) is left out
    }
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, ms]) => [name, (ms / busyMs) * 100])
}

async function runPeers(
  scenarios: PeerScenario[],
  group: string,
  context: CompareContext,
): Promise<PeerScenarioResult[]> {
  const { settings, log } = context
  const started: ServerProcess[] = []
  // one per server in the smoke form, which only checks answers and runs the code paths
  const processes = settings.peerProcesses
  const rounds = settings.peerRounds
  try {
    log(`  starting ${peers.length} servers × ${processes} processes`)
    // Side by side (start-up is not measured); allSettled, so none is left running on a failure.
    const settled = await Promise.allSettled(
      peers.map((peer) =>
        startSide(
          group,
          { name: peer.name, script: peer.script, path: '' },
          { ...context, settings: { ...settings, httpProcesses: processes } },
          started,
        ),
      ),
    )
    const sides: RunningSide[] = []
    for (const item of settled) {
      if (item.status === 'rejected') throw item.reason
      if (!('instances' in item.value)) throw new Error(`${item.value.name}: ${item.value.unavailable}`)
      sides.push(item.value)
    }
    const results: PeerScenarioResult[] = []
    for (const scenario of scenarios) {
      log(`\n== peers ${scenario.title}: ${scenario.method ?? 'GET'} ${scenario.path}`)
      for (const side of sides) side.rounds = []
      results.push(await measureScenario(scenario, sides, rounds, context))
    }
    return results
  } catch (error) {
    const reason = `failed: ${(error as Error).message.split('\n').slice(0, 6).join(' | ')}`
    log(`  ${reason}`)
    return scenarios.map((scenario) => ({ ...emptyResult(scenario), skipped: reason }))
  } finally {
    await Promise.all(started.map((server) => server.stop()))
  }
}

function emptyResult(scenario: PeerScenario): PeerScenarioResult {
  return { id: `peers-${scenario.id}`, title: scenario.title, ...peerLoad, sides: [], ratios: [], mismatches: [] }
}

async function measureScenario(
  scenario: PeerScenario,
  sides: RunningSide[],
  rounds: number,
  context: CompareContext,
): Promise<PeerScenarioResult> {
  const { settings, log } = context
  const result = emptyResult(scenario)
  const url = (instance: Instance) => `${instance.server.origin}${scenario.path}`
  const request = {
    ...(scenario.method ? { method: scenario.method } : {}),
    headers: scenario.headers ?? {},
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
  }
  // Weft's answer is the reference: every process of every peer must send the same bytes.
  const answers = await Promise.all(
    sides.map((side) => Promise.all(side.instances.map((instance) => fetchAnswer(url(instance), request)))),
  )
  const reference = answers[1]![0]! as Answer
  if (reference.status < 200 || reference.status > 299) {
    result.skipped = `failed: Weft answered ${reference.status}: ${reference.body.toString().slice(0, 300)}`
    log(`  ${result.skipped}`)
    return result
  }
  sides.forEach((side, index) => {
    for (const answer of answers[index]!) {
      const difference = answerDifference(reference, answer)
      if (difference && !result.mismatches.some((item) => item.startsWith(`${side.name}:`))) {
        result.mismatches.push(`${side.name}: ${difference}`)
        log(`  answers differ: ${side.name}: ${difference}`)
      }
    }
  })
  // The smoke form's rounds only prove the loop runs: keep each one short.
  const seconds = settings.smoke ? Math.min(settings.httpSeconds, 0.15) : settings.httpSeconds
  const shape = settings.smoke ? smokeLoad : peerLoad
  // each process's request, and the length of its answer (the same bytes every time but the Date)
  const targets = new Map<Instance, { at: URL; bytes: Buffer; length: number }>()
  for (const side of sides) {
    for (const instance of side.instances) {
      const at = new URL(url(instance))
      const bytes = requestBytes(at, request)
      targets.set(instance, { at, bytes, length: await answerLength(at, bytes) })
    }
  }
  const loadOf = (instance: Instance, seconds: number) => {
    const { at, bytes, length } = targets.get(instance)!
    return pipelinedLoad(at, bytes, length, { ...shape, seconds })
  }
  if (settings.httpWarmupSeconds > 0) {
    const warmup = Math.min(1, settings.httpWarmupSeconds)
    for (const side of sides) for (const instance of side.instances) await loadOf(instance, warmup)
  }
  const measure = async (side: RunningSide, round: number): Promise<Round> => {
    const index = round % side.instances.length
    const instance = side.instances[index]!
    const cpuBefore = instance.server.cpuSeconds()
    const startedAt = process.hrtime.bigint()
    const measured = await loadOf(instance, seconds)
    const wall = Number(process.hrtime.bigint() - startedAt) / 1e9
    const cpu = instance.server.cpuSeconds() - cpuBefore
    const cpuUsPerRequest = (cpu / measured.requests) * 1e6
    const item = { ...measured, process: index, cpuUsPerRequest, cpuBusy: cpu / wall }
    side.rounds.push(item)
    log(
      `  round ${round + 1} ${side.name} #${index + 1}: ${Math.round(measured.requestsPerSec)} req/s p99 ${measured.p99Ms} ms, ` +
        `${cpuUsPerRequest.toFixed(1)} µs CPU/request, CPU busy ${Math.round((cpu / wall) * 100)}%`,
    )
    return item
  }
  const sideOf = (key: PeerKey) => sides[peers.findIndex((peer) => peer.key === key)]!
  // per pair, its rounds: what its two servers measured while loaded together
  const paired = peerPairs.map(() => ({ baseline: [] as Round[], candidate: [] as Round[] }))
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < peerPairs.length; step++) {
      const at = (step + round) % peerPairs.length
      const pair = peerPairs[at]!
      const [baseline, candidate] = await Promise.all([
        measure(sideOf(pair.baseline), round),
        measure(sideOf(pair.candidate), round),
      ])
      paired[at]!.baseline.push(baseline)
      paired[at]!.candidate.push(candidate)
    }
  }
  result.sides = sides.map((side, index) => ({ ...summarise(side), key: peers[index]!.key }))
  peerPairs.forEach((pair, at) => {
    const { baseline, candidate } = paired[at]!
    const cpu = roundRatios(
      baseline.map((item) => item.cpuUsPerRequest),
      candidate.map((item) => item.cpuUsPerRequest),
    )
    const rps = roundRatios(
      candidate.map((item) => item.requestsPerSec),
      baseline.map((item) => item.requestsPerSec),
    )
    const ratio: PeerRatio = {
      name: `peers ${scenario.id}: ${pair.name}`,
      baseline: pair.baseline,
      candidate: pair.candidate,
      cpuRatio: median(cpu),
      cpuSpread: quartiles(cpu),
      ratio: median(rps),
      spread: quartiles(rps),
    }
    if (pair.required !== undefined) {
      ratio.required = pair.required
      if (!settings.smoke) ratio.met = ratio.cpuRatio >= pair.required
    }
    result.ratios.push(ratio)
  })
  return result
}
