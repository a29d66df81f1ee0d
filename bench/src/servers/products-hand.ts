// (c) baseline: `GET /api/products` written by hand on bare Fastify with drizzle (products-list.ts).
import Fastify from 'fastify'
import { database, listProducts } from './products-list.js'
import { serve } from './serve.js'

const app = Fastify({ logger: false })
// The explanatory comparison x-helmet adds the security headers API A sends (@fastify/helmet defaults).
if (process.env.BENCH_HELMET === '1') await app.register((await import('@fastify/helmet')).default)
app.get('/api/products', async (request) => listProducts(request.query as Record<string, string>))
await serve(app, {}, () => database.close())
