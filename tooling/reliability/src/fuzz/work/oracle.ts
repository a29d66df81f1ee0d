import fc from 'fast-check'
import { resolve, seedOf, send } from '../runner.js'
import { selfId, sessionAuthorization } from '../session.js'
import type { FuzzRequest, FuzzTarget } from '../target.js'
import { countsFor, grownRequest } from './grow.js'
import { type Growth, type GrowthOptions, growthLimit, measureGrowth } from './measure.js'
import { classicShapes, type GrowthShape, growthShapes, type Surface, surfacesOf } from './shapes.js'

/** An input shape whose handling time grew faster than its size. */
export interface WorkFinding {
  target: string
  surface: Surface
  operation: string
  /** Replay: `RELIABILITY_FAMILY='work:<surface>' RELIABILITY_SEED=<seed> RELIABILITY_PATH=<path>`. */
  seed: number
  path: string
  /** How the input grows (head, unit repeated, tail). */
  shape: string
  /** Bytes of the grown part at n, 2n and 4n. */
  bytes: number[]
  /** Fastest CPU milliseconds per request at each size. */
  cpuMs: number[]
  /** The worst time ratio of a size to the one half its size. */
  ratio: number
  /** Measurements made (the smallest ratio kept). */
  attempts: number
  /** The answers' statuses at each size. */
  statuses: number[]
}

/** What the oracle measured on one surface. */
export interface SurfaceFigures {
  shapes: number
  seed: number
  /** The worst ratio measured, and its shape. */
  worstRatio: number
  worstShape: string
  /** The most CPU one request at the largest size cost (ms). */
  slowestMs: number
}

export interface WorkFigures {
  shapes: number
  seconds: number
  /** CPU seconds of the process meanwhile (the wall clock depends on what else the machine runs). */
  cpuSeconds: number
  /** Twice the bytes may cost at most this many times the time. */
  limit: number
  /** Bytes of the largest header or query string, and of the largest body. */
  topBytes: { header: number; body: number }
  surfaces: Partial<Record<Surface, SurfaceFigures>>
  findings: WorkFinding[]
}

export interface WorkOptions {
  /** Shapes generated per surface (every header, the query string, every body type). */
  shapesPerSurface: number
  /** Largest grown header or query string: Node's limit on a request's headers by default (16 KiB). */
  headerBytes?: number
  /** Largest body: 90 % of the app's body limit, at most 64 KiB, by default. */
  bodyBytes?: number
  measure?: GrowthOptions
  /** Only these surfaces (default: every surface the target's routes take). */
  surfaces?: readonly Surface[]
}

/** A shape as one line: where it goes and how it grows. */
export function describeShape(shape: GrowthShape): string {
  const where = `${shape.surface} → ${shape.route.method} ${shape.route.path}`
  if (shape.binary) {
    const { kind, item, sameKey, extType } = shape.binary
    const detail =
      kind === 'map' ? (sameKey ? ', one key' : ', distinct keys') : kind === 'bignum' ? `, type ${extType}` : ''
    return `${where}: ${kind} of ${item}${detail}, under "${shape.field}"`
  }
  const t = shape.text
  if (!t) return where
  const q = (s: string) => JSON.stringify(s.replaceAll('{F}', shape.field))
  const pairs = shape.surface === 'query' || shape.surface === 'body form'
  const each =
    pairs && t.everyField && shape.route.fields?.length ? ` (once per field: ${shape.route.fields.join(', ')})` : ''
  return `${where}${each}: ${q(t.head)} + ${q(t.unit)}×k${t.middle ? ` + ${q(t.middle)}` : ''}${t.close ? ` + ${q(t.close)}×k` : ''}${t.tail ? ` + ${q(t.tail)}` : ''}`
}

/** Sends the request as it stands (the session user's token and id filled in), and notes an ended session. */
async function handle(target: FuzzTarget, request: FuzzRequest): Promise<number> {
  const sent = await resolve(target, request)
  const response = await send(target, sent)
  target.session?.afterAnswer(
    sent,
    request.url.includes(selfId),
    request.headers.authorization === sessionAuthorization,
    response.statusCode,
  )
  return response.statusCode
}

/** Measures one shape at n, 2n and 4n bytes. */
async function measureShape(
  target: FuzzTarget,
  shape: GrowthShape,
  top: number,
  options: GrowthOptions,
): Promise<{ bytes: number[]; statuses: number[]; growth: Growth }> {
  const counts = countsFor((count) => grownRequest(target, shape, count).bytes, top)
  const grown = counts.map((count) => grownRequest(target, shape, count))
  const statuses: number[] = []
  for (const { request } of grown) statuses.push(await handle(target, request))
  // The session's token and id as they are now: a request that ends the session is renewed on the next shape.
  const requests = await Promise.all(grown.map(({ request }) => resolve(target, request)))
  const growth = await measureGrowth(
    requests.map((request) => () => send(target, request)),
    options,
  )
  target.logs?.take()
  return { bytes: grown.map((g) => g.bytes), statuses, growth }
}

/**
 * The work oracle: for every surface of the target (each request header the packages and apps read, the
 * query string, each body type), generated growth shapes are sent at n, 2n and 4n bytes, and any whose
 * CPU time more than `growthLimit` times for twice the bytes is a finding. Seeded like the fuzz families
 * (`work:<surface>`); with `RELIABILITY_FAMILY=work:<surface>` and `RELIABILITY_PATH`, replays one shape.
 */
export async function workOracle(target: FuzzTarget, options: WorkOptions): Promise<WorkFigures> {
  const began = Date.now()
  const cpuBefore = process.cpuUsage()
  const bodyLimit = (target.app.initialConfig.bodyLimit as number | undefined) ?? 1024 * 1024
  const topBytes = {
    header: options.headerBytes ?? 16 * 1024,
    body: options.bodyBytes ?? Math.min(64 * 1024, Math.floor(bodyLimit * 0.9)),
  }
  const figures: WorkFigures = {
    shapes: 0,
    seconds: 0,
    cpuSeconds: 0,
    limit: options.measure?.limit ?? growthLimit,
    topBytes,
    surfaces: {},
    findings: [],
  }
  const only = process.env.RELIABILITY_FAMILY
  if (only !== undefined && !only.startsWith('work:')) return figures
  const replayPath = process.env.RELIABILITY_PATH
  const surfaces = (options.surfaces ?? surfacesOf(target.routes)).filter(
    (s) => only === undefined || `work:${s}` === only,
  )
  for (const surface of surfaces) {
    const seed = seedOf(target.name, `work:${surface}`)
    const top = surface.startsWith('body ') ? topBytes.body : topBytes.header
    const seen: SurfaceFigures = { shapes: 0, seed, worstRatio: 0, worstShape: '', slowestMs: 0 }
    let index = 0
    const property = fc.asyncProperty(growthShapes(surface, target.routes), async (shape) => {
      const path = replayPath ?? String(index++)
      const { bytes, statuses, growth } = await measureShape(target, shape, top, options.measure ?? {})
      seen.shapes += 1
      seen.slowestMs = Math.max(seen.slowestMs, growth.cpuMs.at(-1) ?? 0)
      if (growth.ratio > seen.worstRatio) {
        seen.worstRatio = growth.ratio
        seen.worstShape = describeShape(shape)
      }
      if (growth.ratio > figures.limit)
        figures.findings.push({
          target: target.name,
          surface,
          operation: shape.route.operation ?? `${shape.route.method} ${shape.route.path}`,
          seed,
          path,
          shape: describeShape(shape),
          bytes,
          cpuMs: growth.cpuMs,
          ratio: growth.ratio,
          attempts: growth.attempts,
          statuses,
        })
    })
    const details = await fc.check(property, {
      numRuns: replayPath ? 1 : options.shapesPerSurface,
      seed,
      examples: classicShapes(surface, target.routes).map((shape): [GrowthShape] => [shape]),
      ...(replayPath ? { path: replayPath } : {}),
    })
    if (details.failed) throw details.errorInstance ?? new Error(`work oracle: ${surface} failed`)
    figures.surfaces[surface] = seen
    figures.shapes += seen.shapes
  }
  figures.seconds = (Date.now() - began) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  figures.cpuSeconds = Math.round((cpu.user + cpu.system) / 1e4) / 100
  process.stderr.write(
    `work ${target.name}: ${figures.shapes} shapes on ${surfaces.length} surfaces in ${figures.seconds} s (${figures.cpuSeconds} s CPU), ${figures.findings.length} findings\n`,
  )
  return figures
}

const round = (n: number) => (n >= 10 ? n.toFixed(1) : n.toPrecision(3))

/** A finding as a readable block for an assertion message. */
export function formatWorkFinding(finding: WorkFinding): string {
  const sizes = finding.bytes.map((b, i) => `${b} B: ${round(finding.cpuMs[i] ?? 0)} ms (${finding.statuses[i]})`)
  return [
    `${finding.target} / work on ${finding.operation}: twice the bytes cost ${finding.ratio.toFixed(2)}× the CPU time (${finding.attempts} measurements, smallest kept)`,
    `  shape: ${finding.shape}`,
    `  sizes: ${sizes.join(', ')}`,
    `  replay: RELIABILITY_FAMILY='work:${finding.surface}' RELIABILITY_SEED=${finding.seed} RELIABILITY_PATH=${finding.path}`,
  ].join('\n')
}
