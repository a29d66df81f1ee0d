import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FuzzTarget } from '../src/fuzz/target.js'
import { encodeGrowth } from '../src/fuzz/work/binary-shapes.js'
import { countsFor, grownRequest } from '../src/fuzz/work/grow.js'
import { measureGrowth } from '../src/fuzz/work/measure.js'
import { formatWorkFinding, workOracle } from '../src/fuzz/work/oracle.js'
import { type GrowthShape, growthShapes, surfacesOf } from '../src/fuzz/work/shapes.js'

/** Burns CPU in proportion to `units` (a loop the JIT cannot drop: its result is used). */
function spin(units: number): number {
  let x = 0
  for (let i = 0; i < units * 200; i++) x = (x * 31 + i) | 0
  return x
}

/**
 * A planted quadratic and its linear twin, both reading `X-Forwarded-For`: the quadratic one scans
 * the rest of the header again at every 16th character (as a trailing-space regex retried at every
 * space does), the linear one scans it once.
 */
async function plantedApp(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false })
  app.get('/quadratic', async (request) => {
    const value = String(request.headers['x-forwarded-for'] ?? '')
    let zeros = 0
    for (let i = 0; i < value.length; i += 16)
      for (let j = i; j < value.length; j++) if (value.charCodeAt(j) === 0) zeros++
    return { zeros }
  })
  app.get('/linear', async (request) => {
    const value = String(request.headers['x-forwarded-for'] ?? '')
    let commas = 0
    for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) === 44) commas++
    return { commas }
  })
  await app.ready()
  return app
}

const targetOf = (app: FastifyInstance, path: string): FuzzTarget => ({
  name: `planted${path}`,
  app,
  routes: [{ method: 'GET', path, headers: ['x-forwarded-for'] }],
  authorizations: [],
  check: () => [],
  close: () => app.close(),
})

describe('measuring growth', () => {
  it('gives about 2 for linear work and about 4 for quadratic work, per doubling', async () => {
    const linear = await measureGrowth([1, 2, 4].map((n) => async () => spin(n * 10_000)))
    const quadratic = await measureGrowth([1, 2, 4].map((n) => async () => spin(n * n * 5_000)))
    expect(linear.ratio).toBeLessThan(2.5)
    expect(quadratic.ratio).toBeGreaterThan(2.5)
    expect(quadratic.attempts).toBe(3) // a ratio over the limit is measured again before it is believed
  })
})

describe('the work oracle', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await plantedApp()
  })
  afterAll(async () => {
    await app.close()
  })

  it('flags every generated shape of a handler quadratic in a header, with its sizes and times', async () => {
    const work = await workOracle(targetOf(app, '/quadratic'), {
      shapesPerSurface: 3,
      surfaces: ['header x-forwarded-for'],
    })
    expect(work.shapes).toBe(3)
    expect(work.findings).toHaveLength(3)
    for (const finding of work.findings) {
      expect(finding.ratio).toBeGreaterThan(2.5)
      expect(finding.bytes[2]).toBeLessThanOrEqual(16 * 1024)
      expect(finding.bytes[2]).toBeGreaterThan(15 * 1024)
      expect(finding.statuses).toEqual([200, 200, 200])
    }
    const report = formatWorkFinding(work.findings[0] as (typeof work.findings)[0])
    expect(report).toContain('planted/quadratic / work on GET /quadratic: twice the bytes cost')
    expect(report).toMatch(/shape: header x-forwarded-for → GET \/quadratic: ".*"×k/)
    expect(report).toMatch(/sizes: \d+ B: [\d.]+ ms \(200\), \d+ B/)
    expect(report).toContain("replay: RELIABILITY_FAMILY='work:header x-forwarded-for' RELIABILITY_SEED=")
  })

  it('does not flag the same header read in linear time', async () => {
    const work = await workOracle(targetOf(app, '/linear'), {
      shapesPerSurface: 8,
      surfaces: ['header x-forwarded-for'],
    })
    expect(work.shapes).toBe(8)
    expect(work.findings.map(formatWorkFinding)).toEqual([])
    expect(work.surfaces['header x-forwarded-for']?.worstRatio).toBeLessThan(2.5)
  })
})

describe('the growth shapes', () => {
  const routes = [
    { method: 'GET' as const, path: '/read', fields: ['q'] },
    { method: 'POST' as const, path: '/write', fields: ['name'] },
  ]
  const target = targetOf(Fastify(), '/read')

  it('cover every header the packages read, the query string and all six body types', () => {
    expect(surfacesOf(routes)).toEqual(
      expect.arrayContaining([
        'header accept',
        'header accept-language',
        'header range',
        'header x-forwarded-for',
        'header cookie',
        'header content-type',
        'query',
        'body json',
        'body form',
        'body multipart',
        'body xml',
        'body msgpack',
        'body cbor',
      ]),
    )
  })

  it('repeat tricky units: spaces, commas, semicolons, escapes, brackets, nesting, parameters, digits', () => {
    const units = fc
      .sample(growthShapes('header accept', routes), { numRuns: 400, seed: 42 })
      .map((s) => `${s.text?.unit}${s.text?.close}`)
      .join('')
    for (const piece of [' ', ',', ';', '\\', '"', '[', ']', '(', '=', '9', ';q='])
      expect(units, `a unit with ${JSON.stringify(piece)}`).toContain(piece)
    const closes = fc.sample(growthShapes('query', routes), { numRuns: 200, seed: 42 }).filter((s) => s.text?.close)
    expect(closes.length).toBeGreaterThan(0)
  })

  it('double the bytes from one size to the next, within the limit', () => {
    for (const surface of surfacesOf(routes)) {
      for (const shape of fc.sample(growthShapes(surface, routes), { numRuns: 20, seed: 7 })) {
        const at = (count: number) => grownRequest(target, shape, count).bytes
        const counts = countsFor(at, 16 * 1024)
        const [n, n2, n4] = counts.map(at) as [number, number, number]
        expect(n4, `${surface} ${JSON.stringify(shape)}`).toBeLessThanOrEqual(16 * 1024 + 64)
        expect(n4, surface).toBeGreaterThan(8 * 1024)
        expect(n2 / n, surface).toBeGreaterThan(1.6)
        expect(n4 / n2, surface).toBeGreaterThan(1.8)
      }
    }
  })

  it('grow CBOR bignums and shared references with the count', () => {
    const shape = (kind: 'bignum' | 'shared'): GrowthShape['binary'] => ({
      kind,
      item: '"a"',
      sameKey: true,
      extType: 2,
    })
    const bignum = encodeGrowth('cbor', shape('bignum') as NonNullable<GrowthShape['binary']>, 'name', 1000)
    expect(bignum.includes(Buffer.from([0xc2, 0x5a, 0, 0, 0x03, 0xe8]))).toBe(true)
    const shared = encodeGrowth('cbor', shape('shared') as NonNullable<GrowthShape['binary']>, 'name', 100)
    expect(shared.includes(Buffer.from([0xd8, 0x1c]))).toBe(true)
    expect(shared.length).toBeLessThan(1_000)
  })
})
