// Cost as the data grows, on real PostgreSQL (`BENCH_ONLY=pg-scale`): API A's product list and the
// drizzle keyset helper of @weft/pagination (its README example route) on tables of 10^3, 10^5 and
// 10^6 rows, time per page for the first page and for pages starting deeper, reached by cursor and
// by offset; EXPLAIN of every allowed sort's cursor query. Rows are bulk-loaded with
// `INSERT … SELECT generate_series` into a scratch database (dropped afterwards) of the server in
// `TEST_DATABASE_URL`, else of a throwaway server. The smoke form loads 10^3 rows only.
import { performance } from 'node:perf_hooks'
import { createScratchDatabase, type ScratchDatabase } from '@weft/tooling/test-db'
import { and, type Column, getTableColumns, type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core'
import Fastify, { type FastifyInstance } from 'fastify'
import type { GoalCheck } from './report.js'
import type { BenchSettings } from './settings.js'

export type PgScaleTarget = 'api-a' | 'helper'
export type PgScaleMode = 'first' | 'cursor' | 'offset'

export interface PgScaleTiming {
  target: PgScaleTarget
  rows: number
  /** First row of the page (0: the first page). */
  depth: number
  mode: PgScaleMode
  /** Median milliseconds per page request (`app.inject`, the route's whole work). */
  ms: number
}

export interface PgScalePlan {
  target: PgScaleTarget
  /** The `sort` query value. */
  sort: string
  /** The plan reads an index in the order asked (no Sort node, no sequential scan). */
  indexScan: boolean
  /** The plan's nodes, outermost first. */
  nodes: string
  /** Rows the scan read (returned and filtered out) for one page of 20: far more means a walk from the start. */
  rowsRead?: number
}

export interface PgScaleResult {
  sizes: number[]
  samples: number
  timings: PgScaleTiming[]
  plans: PgScalePlan[]
  /** Seconds to load each size (both tables, indexes and ANALYZE included). */
  loadSeconds: number[]
  notes: string[]
  skipped?: string
  seconds: number
}

const pageLimit = 20
/** The sorts timed: API A's (c) sort, and the helper's newest-first list. */
const timedSort: Record<PgScaleTarget, string> = { 'api-a': '-amount', helper: '-created' }
const allowedSorts: Record<PgScaleTarget, string[]> = {
  'api-a': ['id', 'title', 'amount', 'created_at'],
  helper: ['id', 'price', 'name', 'created'],
}

/** Table sizes of a run: `BENCH_PG_SCALE_SIZES`, else 10^3, 10^5, 10^6 (10^3 in the smoke form). */
export function pgScaleSizes(settings: BenchSettings, env: NodeJS.ProcessEnv = process.env): number[] {
  const given = (env.BENCH_PG_SCALE_SIZES ?? '')
    .split(',')
    .map(Number)
    .filter((value) => Number.isInteger(value) && value >= 200)
  if (given.length > 0) return [...new Set(given)].sort((a, b) => a - b)
  return settings.smoke ? [1_000] : [1_000, 100_000, 1_000_000]
}

/** Positions timed in a table of `rows`: row 100,000 and shallower ones, each at most `rows - 100`. */
export function depthsFor(rows: number): number[] {
  return [...new Set([500, 1_000, 10_000, 100_000].map((depth) => Math.min(depth, rows - 100)))].filter(
    (depth) => depth > 0,
  )
}

export function timingOf(
  scale: PgScaleResult,
  target: PgScaleTarget,
  rows: number,
  depth: number,
  mode: PgScaleMode,
): number | undefined {
  return scale.timings.find(
    (t) => t.target === target && t.rows === rows && t.depth === depth && (t.mode === mode || depth === 0),
  )?.ms
}

/** The goal: at 10^6 rows, a cursor page at row 100,000 costs at most 1.2x the first page. */
export function pgScaleGoal(scale: PgScaleResult, smoke: boolean): GoalCheck[] {
  const rows = 1_000_000
  return (['api-a', 'helper'] as const).map((target) => {
    const first = timingOf(scale, target, rows, 0, 'first')
    const deep = timingOf(scale, target, rows, 100_000, 'cursor')
    const measured = first !== undefined && deep !== undefined ? deep / first : undefined
    return {
      name: `${target === 'api-a' ? 'API A product list' : 'drizzle keyset helper'}, 10^6 rows: cursor page at row 100,000 vs first page`,
      required: 1.2,
      atMost: true,
      measured,
      by: 'time' as const,
      met: smoke || measured === undefined ? undefined : measured <= 1.2,
    }
  })
}

type Db = PgDatabase<PgQueryResultHKT>

/** What one target needs: an app serving the list, its database, how to grow its table. */
interface Target {
  name: PgScaleTarget
  app: FastifyInstance
  db: Db
  path: string
  /** Adds rows `from + 1` to `to` (ANALYZE is the caller's). */
  grow(from: number, to: number): Promise<void>
  /** `{ sql, params }` of a cursor query for `sort`, built as the route builds it. */
  planApp: FastifyInstance
  close(): Promise<void>
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

/**
 * Median ms per request of each url, timed in rounds that request every url once, in turn: the
 * pages of a table then see the same machine and the same database state. Timed one url after the
 * other, the first page of a freshly loaded table measured 0.9 to 1.5 ms in runs of the same code
 * while the cursor pages timed after it held at 1.0 to 1.1 ms (background work after a bulk load
 * comes and goes).
 */
async function timePages(app: FastifyInstance, urls: string[], samples: number): Promise<number[]> {
  for (let i = 0; i < 3; i++) for (const url of urls) await get(app, url)
  const times = urls.map(() => [] as number[])
  for (let i = 0; i < samples; i++) {
    for (const [index, url] of urls.entries()) {
      const start = performance.now()
      await get(app, url)
      times[index]!.push(performance.now() - start)
    }
  }
  return times.map(median)
}

async function get(app: FastifyInstance, url: string): Promise<Record<string, unknown>> {
  const response = await app.inject(url)
  if (response.statusCode !== 200)
    throw new Error(`${url} answered ${response.statusCode}: ${response.body.slice(0, 200)}`)
  return response.json() as Record<string, unknown>
}

const nextCursor = (body: Record<string, unknown>) => {
  const meta = body.meta as { pagination?: { next_cursor?: string | null } } | undefined
  return meta?.pagination?.next_cursor ?? (body.next_cursor as string | null | undefined) ?? undefined
}

/** Walks the list by cursor, 100 rows a page, and returns the cursor that starts at each depth. */
async function cursorsAt(target: Target, sort: string, depths: number[]): Promise<Map<number, string>> {
  const found = new Map<number, string>()
  const wanted = new Set(depths)
  const last = Math.max(...depths)
  let position = 0
  let cursor: string | undefined
  let step = 100
  while (position < last) {
    step = Math.min(100, ...depths.filter((depth) => depth > position).map((depth) => depth - position))
    const body = await get(
      target.app,
      `${target.path}?limit=${step}&sort=${sort}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    )
    cursor = nextCursor(body)
    if (cursor === undefined) throw new Error(`${target.name}: no next cursor at row ${position + step}`)
    position += step
    if (wanted.has(position)) found.set(position, cursor)
  }
  return found
}

/** A Fastify app whose `/plan?sort=…&cursor=…` answers the SQL of the cursor query `columns` make. */
async function planApp(
  db: Db,
  table: PgTable,
  columns: Record<string, Column | { column: Column; key: string }>,
  filter: SQL | undefined,
  hookOptions: Record<string, unknown>,
  queryOptions: { nullFlags?: boolean } = {},
): Promise<FastifyInstance> {
  const { paginate } = await import('@weft/pagination')
  const { paginateQuery } = await import('@weft/pagination/drizzle')
  const hook = paginate({ allowedSorts: Object.keys(columns), ...hookOptions })
  const app = Fastify({ logger: false })
  app.get('/plan', { onRequest: hook }, async (request) => {
    const page = hook.fromContext(request)
    const q = paginateQuery(page, { columns, unique: 'id', ...queryOptions })
    const query = db
      .select({ ...getTableColumns(table), ...q.select })
      .from(table)
      .where(and(filter, q.where))
      .orderBy(...q.orderBy)
      .limit(q.limit)
      .offset(q.offset)
    const rows = await query
    q.finish(rows)
    const explained = (await db.execute(
      sql`explain (analyze, format json) ${query as unknown as SQLWrapper}`,
    )) as unknown
    const list = (Array.isArray(explained) ? explained : (explained as { rows: unknown[] }).rows) as Record<
      string,
      unknown
    >[]
    const plan = (Object.values(list[0]!)[0] as { Plan: PlanNode }[])[0]!.Plan
    return { next_cursor: page.toJSON().next_cursor, plan }
  })
  await app.ready()
  return app
}

interface PlanNode {
  'Node Type': string
  'Index Cond'?: string
  'Actual Rows'?: number
  'Rows Removed by Filter'?: number
  'Index Name'?: string
  'Scan Direction'?: string
  Plans?: PlanNode[]
}

function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)]
}

/** Plans every allowed sort's cursor query (second page: with a keyset condition), both directions. */
async function explainSorts(target: Target): Promise<PgScalePlan[]> {
  const plans: PgScalePlan[] = []
  for (const field of allowedSorts[target.name]) {
    for (const sort of [field, `-${field}`]) {
      const first = (await target.planApp.inject(`/plan?sort=${sort}&limit=${pageLimit}`)).json() as {
        next_cursor: string
      }
      const answer = await target.planApp.inject(
        `/plan?sort=${sort}&limit=${pageLimit}&cursor=${encodeURIComponent(first.next_cursor)}`,
      )
      if (answer.statusCode !== 200) throw new Error(`plan of ${sort}: ${answer.statusCode} ${answer.body}`)
      const nodes = planNodes((answer.json() as { plan: PlanNode }).plan)
      const scans = nodes.filter((node) => /Scan$/.test(node['Node Type']))
      const rowsRead = scans.reduce(
        (sum, node) => sum + (node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0),
        0,
      )
      // an index read in the order asked, from the cursor on (its condition in the index's bounds)
      const indexScan =
        scans.some((node) => /^Index (Only )?Scan$/.test(node['Node Type']) && node['Index Cond'] !== undefined) &&
        !nodes.some((node) => node['Node Type'] === 'Sort' || node['Node Type'] === 'Seq Scan')
      plans.push({
        target: target.name,
        sort,
        indexScan,
        rowsRead,
        nodes: nodes
          .map(
            (node) =>
              `${node['Node Type']}${node['Scan Direction'] === 'Backward' ? ' Backward' : ''}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}${node['Index Cond'] ? ` (${node['Index Cond']})` : ''}`,
          )
          .join(' → '),
      })
    }
  }
  return plans
}

async function apiATarget(scratch: ScratchDatabase): Promise<Target> {
  const { openDatabase } = await import('@weft/api-a/src/db/client.ts')
  const { buildApp } = await import('@weft/api-a/src/app.ts')
  const { products } = await import('@weft/api-a/src/db/schema.ts')
  const { apiSettings } = await import('./servers/api-a-env.ts')
  const database = await openDatabase({ kind: 'postgres', url: scratch.url })
  await database.migrate()
  const db = database.db as unknown as Db
  await db.execute(
    sql`insert into users (username, email, password_hash) values ('owner', 'owner@example.com', 'scrypt$1024$8$1$not-a-real-salt$not-a-real-key')`,
  )
  const app = await buildApp({ database, settings: apiSettings() })
  await app.ready()
  const plans = await planApp(
    db,
    products,
    {
      id: products.id,
      title: products.title,
      amount: products.amount,
      created_at: { column: products.createdAt, key: 'createdAt' },
    },
    undefined,
    { sortKey: 'sort', defaultSort: 'id', maxLimit: 100 },
  )
  return {
    name: 'api-a',
    app,
    db,
    path: '/api/products',
    planApp: plans,
    async grow(from, to) {
      // Many equal amounts (the id breaks ties), titles in another order than ids, distinct times.
      await db.execute(sql`insert into products (title, description, amount, owner_id, created_at, updated_at)
        select 'Product ' || lpad(((i * 7919) % ${to})::text, 7, '0'),
               'Seeded product ' || i || ' for the benchmarks: a sentence long enough to look like real data.',
               (i * 7919) % 5000, (select min(id) from users),
               timestamptz '2026-01-01' + i * interval '1 second', timestamptz '2026-01-01' + i * interval '1 second'
        from generate_series(${from + 1}::bigint, ${to}::bigint) as i`)
    },
    async close() {
      await plans.close()
      await app.close()
      await database.close()
    },
  }
}

async function helperTarget(scratch: ScratchDatabase): Promise<Target> {
  const { openDatabase } = await import('@weft/api-a/src/db/client.ts')
  const { productRoutes, products } = await import('../../packages/pagination/examples/drizzle-products.ts')
  // API A's client (postgres.js under drizzle) on a database of the example's own table
  const database = await openDatabase({ kind: 'postgres', url: scratch.url })
  const db = database.db as unknown as Db
  await db.execute(sql`create table products (id serial primary key, name text not null,
    price numeric(12, 2), active boolean not null default true, created_at timestamptz not null default now())`)
  // An index per sort, each ending with the id the helper appends as the tie-breaker; for the
  // nullable price, also the two expression indexes of `nullFlags` (its README), which the plans use.
  for (const column of ['name', 'price', 'created_at']) {
    await db.execute(sql.raw(`create index products_${column}_id_idx on products (${column}, id)`))
  }
  await db.execute(sql`create index products_price_nulls_idx on products (num_nulls(price), price, id)`)
  await db.execute(sql`create index products_price_values_idx on products (num_nonnulls(price), price, id)`)
  const app = Fastify({ logger: false })
  productRoutes(app, db)
  await app.ready()
  const plans = await planApp(
    db,
    products,
    {
      id: products.id,
      price: products.price,
      name: products.name,
      created: { column: products.createdAt, key: 'createdAt' },
    },
    sql`${products.active} = true`,
    {},
    { nullFlags: true },
  )
  return {
    name: 'helper',
    app,
    db,
    path: '/products',
    planApp: plans,
    async grow(from, to) {
      await db.execute(sql`insert into products (name, price, active, created_at)
        select 'p' || lpad(((i * 7919) % ${to})::text, 7, '0'),
               case when i % 10 = 0 then null else ((i * 37) % 100000) / 100.0 end,
               true, timestamptz '2026-01-01' + i * interval '1 second'
        from generate_series(${from + 1}::bigint, ${to}::bigint) as i`)
    },
    async close() {
      await plans.close()
      await app.close()
      await database.close()
    },
  }
}

/** Runs the step; a database that cannot be reached makes a skipped result, not a failure. */
export async function runPgScale(settings: BenchSettings, log: (line: string) => void): Promise<PgScaleResult> {
  const started = Date.now()
  const sizes = pgScaleSizes(settings)
  const samples = Number(process.env.BENCH_PG_SCALE_SAMPLES ?? (settings.smoke ? 5 : 30))
  const result: PgScaleResult = { sizes, samples, timings: [], plans: [], loadSeconds: [], notes: [], seconds: 0 }
  const scratches: ScratchDatabase[] = []
  const targets: Target[] = []
  try {
    scratches.push(await createScratchDatabase('bench_scale_api_a'), await createScratchDatabase('bench_scale_helper'))
    targets.push(await apiATarget(scratches[0]!), await helperTarget(scratches[1]!))
    let loaded = 0
    for (const rows of sizes) {
      const loadStart = Date.now()
      // in steps of 100,000 rows: API A's client sets a 10 s statement_timeout. Each step is vacuumed
      // too: the pages then carry their hint bits and visibility, as a table in use does, and no
      // autovacuum of the new rows starts while the pages are timed.
      for (const target of targets) {
        for (let from = loaded; from < rows; from += 100_000) {
          await target.grow(from, Math.min(rows, from + 100_000))
          await target.db.execute(sql`vacuum products`)
        }
        await target.db.execute(sql`analyze products`)
      }
      loaded = rows
      result.loadSeconds.push((Date.now() - loadStart) / 1000)
      log(`  ${rows.toLocaleString('en-US')} rows loaded (${result.loadSeconds.at(-1)!.toFixed(1)} s)`)
      const depths = depthsFor(rows)
      for (const target of targets) {
        const sort = timedSort[target.name]
        const base = `${target.path}?limit=${pageLimit}&sort=${sort}`
        const cursors = await cursorsAt(target, sort, depths)
        // the first and cursor pages timed together, the offset pages after them: an offset page at
        // depth reads every row before it, and would push the others' pages out of the cache
        const page = (depth: number, mode: PgScaleMode, url: string) => ({
          timing: { target: target.name, rows, depth, mode },
          url,
        })
        const groups = [
          [
            page(0, 'first', base),
            ...depths.map((depth) =>
              page(depth, 'cursor', `${base}&cursor=${encodeURIComponent(cursors.get(depth)!)}`),
            ),
          ],
          depths.map((depth) => page(depth, 'offset', `${base}&offset=${depth}`)),
        ]
        for (const group of groups) {
          const ms = await timePages(
            target.app,
            group.map((item) => item.url),
            samples,
          )
          for (const [index, item] of group.entries()) result.timings.push({ ...item.timing, ms: ms[index]! })
        }
        const line = result.timings.filter((t) => t.target === target.name && t.rows === rows)
        log(`  ${target.name}: ${line.map((t) => `${t.mode}@${t.depth} ${t.ms.toFixed(2)} ms`).join(', ')}`)
      }
    }
    for (const target of targets) result.plans.push(...(await explainSorts(target)))
    const noIndex = result.plans.filter((plan) => !plan.indexScan)
    if (noIndex.length > 0) {
      result.notes.push(
        `cursor queries without an index scan: ${noIndex.map((p) => `${p.target} ${p.sort}`).join(', ')}`,
      )
    }
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause
    result.skipped = `failed: ${(error as Error).message.split('\n')[0]}${cause ? ` (${cause.message})` : ''}`
    log(`  ${result.skipped}`)
  } finally {
    for (const target of targets) await target.close().catch(() => {})
    for (const scratch of scratches) await scratch.drop().catch(() => {})
    result.seconds = (Date.now() - started) / 1000
  }
  return result
}
