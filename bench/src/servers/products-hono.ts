// (c) peer: `GET /api/products` written by hand on Hono 4 (@hono/node-server) with drizzle
// (products-list.ts).
import type { Server } from 'node:http'
import { serve as listen } from '@hono/node-server'
import { Hono } from 'hono'
import { database, listProducts } from './products-list.js'
import { serveHttp } from './serve.js'

const app = new Hono()
app.get('/api/products', async (c) =>
  c.json(await listProducts(c.req.query()), 200, { 'Content-Type': 'application/json; charset=utf-8' }),
)
await serveHttp(listen({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server, {}, () => database.close())
