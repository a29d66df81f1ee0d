// (c) peer: `GET /api/products` written by hand on Express 5 with drizzle (products-list.ts), ETag and
// X-Powered-By off as in the peer comparison.
import express from 'express'
import { database, listProducts } from './products-list.js'
import { serveHttp } from './serve.js'

const app = express()
app.set('etag', false)
app.set('x-powered-by', false)
app.get('/api/products', async (req, res) => {
  res.json(await listProducts(req.query as Record<string, string>))
})
await serveHttp(app.listen(0, '127.0.0.1'), {}, () => database.close())
