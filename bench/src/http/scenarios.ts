import { type BenchSettings, selected } from '../settings.js'
import { type CompareContext, type ComparisonResult, compare, type HttpComparison } from './compare.js'
import { type BenchDatabase, preparePglite, preparePostgres } from './database.js'

/** A group of HTTP benchmarks that share a setup (a seeded database): prepares, compares, cleans up. */
export interface HttpScenario {
  ids: string[]
  title: string
  run(context: CompareContext): Promise<ComparisonResult[]>
}

/** Hello routes: many connections and pipelining, so the server (not autocannon) is the bottleneck. */
const helloLoad = { connections: 100, pipelining: 10 }
/** Database routes: a connection pool's worth of concurrent clients, no pipelining. */
const databaseLoad = { connections: 16, pipelining: 1 }

const json = (value: unknown) => JSON.stringify(value)

/** (a) bare Fastify vs (b) the same route through `handle()` + `request.ctx`. */
export const helloComparison: HttpComparison = {
  id: 'b-context-hello',
  title: '(b) handle() + request.ctx vs (a) bare Fastify, GET / hello',
  baseline: { name: 'fastify', script: 'hello-fastify', path: '/' },
  candidate: { name: 'weft handle()', script: 'hello-context', path: '/' },
  load: helloLoad,
  check: (baseline, candidate) =>
    json(baseline) === json(candidate) ? undefined : `bodies differ: ${json(baseline)} vs ${json(candidate)}`,
}

/**
 * (a) against itself: two sets of bare Fastify processes measured exactly like (b). Its ratio
 * should be 1.00x; how far it lands from that is the noise floor of the run, against which (b)'s
 * distance from bare Fastify can be judged. (b) carries no goal: the gate against bare Fastify is
 * instructions per request (src/instructions.ts), the peers' hello scenario included.
 */
export const helloControl: HttpComparison = {
  id: 'a-control',
  title: '(a) bare Fastify vs bare Fastify (control: the noise of this run), GET / hello',
  baseline: helloComparison.baseline,
  candidate: { ...helloComparison.baseline, name: 'fastify (again)' },
  load: helloLoad,
}

type ListBody = { data?: unknown; meta?: { pagination?: unknown } }

/** (c) API A's product list vs the same query by hand: same rows, same paging figures. */
function productsComparison(database: BenchDatabase): HttpComparison {
  return {
    id: `c-products-${database.kind}`,
    title: `(c) API A GET /api/products?page=2&limit=20&sort=-amount vs hand-written, ${database.kind}`,
    baseline: {
      name: 'hand-written fastify + drizzle',
      script: 'products-hand',
      env: database.serverEnv,
      path: productsPath,
    },
    candidate: { name: 'API A', script: 'api-a', env: database.serverEnv, path: productsPath },
    load: databaseLoad,
    check: (baseline, candidate) => {
      const [b, c] = [baseline as ListBody, candidate as ListBody]
      if (json(b.data) !== json(c.data)) return 'the two servers list different rows'
      const [x, y] = [b.meta?.pagination, c.meta?.pagination]
      return json(x) === json(y) ? undefined : `meta.pagination differs: ${json(x)} vs ${json(y)}`
    },
  }
}
const productsPath = '/api/products?page=2&limit=20&sort=-amount'

/**
 * (c) against the peers: API A's product list vs the same route written by hand with drizzle on
 * Express 5 and on Hono (same database, same rows and paging figures; headers are not compared,
 * API A sends helmet's). No goal.
 */
function productsPeerComparison(database: BenchDatabase, peer: 'express' | 'hono'): HttpComparison {
  const name = peer === 'express' ? 'Express 5' : 'Hono'
  const base = productsComparison(database)
  return {
    ...base,
    id: `c-products-${peer}-${database.kind}`,
    title: `(c) API A GET /api/products?page=2&limit=20&sort=-amount vs hand-written on ${name}, ${database.kind}`,
    baseline: { ...base.baseline, name: `hand-written ${name} + drizzle`, script: `products-${peer}` },
  }
}

/**
 * An explanatory comparison, run only when named (`BENCH_ONLY=http:x-helmet`): the hand-written list
 * with and without @fastify/helmet, to tell the share of API A's security headers in (c).
 */
function helmetComparison(database: BenchDatabase): HttpComparison {
  const hand = { script: 'products-hand', path: productsPath }
  return {
    id: `x-helmet-${database.kind}`,
    title: `(x) hand-written product list with @fastify/helmet vs without, ${database.kind}`,
    baseline: { name: 'hand-written', env: database.serverEnv, ...hand },
    candidate: {
      name: 'hand-written + @fastify/helmet',
      env: () => ({ ...database.serverEnv(), BENCH_HELMET: '1' }),
      ...hand,
    },
    load: databaseLoad,
  }
}

/** (d) API A's user read (JWT verify + revocation check) vs JWT verification alone. */
function usersComparison(database: BenchDatabase): HttpComparison {
  const path = (info: Record<string, unknown>) => `/api/users/${info.userId}`
  const headers = (info: Record<string, unknown>) => ({ authorization: `Bearer ${info.token}` })
  return {
    id: `d-users-${database.kind}`,
    title: `(d) API A GET /api/users/:id, JWT verify + revocation check vs JWT verify alone, ${database.kind}`,
    baseline: { name: 'fastify + @fastify/jwt only', script: 'users-jwt', env: database.serverEnv, path, headers },
    candidate: { name: 'API A', script: 'api-a', env: database.serverEnv, path, headers },
    load: databaseLoad,
    check: (baseline, candidate) => {
      const [b, c] = [(baseline as ListBody).data, (candidate as ListBody).data]
      return json(b) === json(c) ? undefined : `the two servers return different users: ${json(b)} vs ${json(c)}`
    },
  }
}

function databaseScenario(kind: 'pglite' | 'postgres', withUsers: boolean, settings: BenchSettings): HttpScenario {
  // The peers' product lists run where (d) runs: on one database, the real server when there is one.
  const peers = withUsers ? [`c-products-express-${kind}`, `c-products-hono-${kind}`] : []
  const ids = [`c-products-${kind}`, ...(withUsers ? [`d-users-${kind}`] : []), ...peers].filter((id) =>
    selected(settings, `http:${id}`),
  )
  if (settings.only.some((item) => item.startsWith('http:x') && `http:x-helmet-${kind}`.startsWith(item))) {
    ids.push(`x-helmet-${kind}`)
  }
  return {
    ids,
    title: `API A on ${kind}`,
    async run(context) {
      const counts = { users: settings.users, products: settings.products }
      let database: BenchDatabase
      try {
        context.log(`  seeding ${counts.products} products on ${kind}`)
        database = kind === 'pglite' ? await preparePglite(counts) : await preparePostgres(counts)
      } catch (error) {
        const reason = `database not prepared: ${(error as Error).message.split('\n')[0]}`
        context.log(`  ${reason}`)
        return ids.map((id) => ({ id, title: id, connections: 0, pipelining: 0, skipped: reason }))
      }
      try {
        const results: ComparisonResult[] = []
        for (const comparison of [
          productsComparison(database),
          usersComparison(database),
          productsPeerComparison(database, 'express'),
          productsPeerComparison(database, 'hono'),
          helmetComparison(database),
        ]) {
          if (!ids.includes(comparison.id)) continue
          context.log(`\n== ${comparison.title}`)
          results.push(await compare(comparison, context))
        }
        return results
      } finally {
        await database.drop()
      }
    },
  }
}

/** Every HTTP benchmark selected, in the order they run. */
export function httpScenarios(settings: BenchSettings): HttpScenario[] {
  const scenarios: HttpScenario[] = []
  for (const comparison of [helloControl, helloComparison]) {
    if (!selected(settings, `http:${comparison.id}`)) continue
    scenarios.push({
      ids: [comparison.id],
      title: comparison.title,
      run: async (context) => {
        context.log(`\n== ${comparison.title}`)
        return [await compare(comparison, context)]
      },
    })
  }
  // (c) runs on both databases; (d), whose difference is one more database round trip, on the real
  // server when there is one (where that round trip crosses a socket, as in production), else on PGlite.
  const postgres = Boolean(process.env.TEST_DATABASE_URL)
  for (const scenario of [
    databaseScenario('pglite', !postgres, settings),
    ...(postgres ? [databaseScenario('postgres', true, settings)] : []),
  ]) {
    if (scenario.ids.length > 0) scenarios.push(scenario)
  }
  return scenarios
}
