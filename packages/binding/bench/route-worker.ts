/**
 * One route of bench/run.ts's route rows, alone in its process (`ROUTE_VARIANT`). Apart, the
 * routes do not share Fastify's call sites: three apps in one process make them polymorphic, and
 * whichever route runs there pays for the others (the same route measured 0.76x to 1.16x).
 * Answers `count` messages with the CPU nanoseconds per request of `count` requests.
 */
import { type RouteVariant, raw, routeApp } from './routes.js'

const app = await routeApp(process.env.ROUTE_VARIANT as RouteVariant)
const url = `/?${raw}`
const first = await app.inject({ url })
if (first.statusCode !== 200 || (first.json() as { page?: number }).page !== 2) {
  throw new Error(`${process.env.ROUTE_VARIANT} answered ${first.statusCode} ${first.body}`)
}

process.on('message', async (count: number) => {
  const start = process.cpuUsage()
  for (let i = 0; i < count; i++) await app.inject({ url })
  const used = process.cpuUsage(start)
  process.send?.(((used.user + used.system) * 1000) / count)
})
process.send?.('ready')
