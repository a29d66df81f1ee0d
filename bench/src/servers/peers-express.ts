// Peer comparison, Express 5 as its users write it: `res.format`, qs (the `extended` query parser) +
// Ajv for the query, `express.json()` + Ajv for the body, paging by hand. ETag and X-Powered-By are
// switched off so its answers are byte for byte the others' (both are one `app.set` away).
import { Ajv } from 'ajv'
import express from 'express'
import { pageQuery, pagingLinks } from './peers-paging.js'
import { greeting, Item, rows, rowsSortedBy, Search } from './peers-shared.js'
import { serveHttp } from './serve.js'

// Fastify's own Ajv settings, so both validate (and coerce) alike.
const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false })
const validSearch = ajv.compile(Search)
const validItem = ajv.compile(Item)

const app = express()
app.set('etag', false)
app.set('x-powered-by', false)
app.set('query parser', 'extended')

app.get('/hello', (_req, res) => {
  res.type('text/plain').send('hello')
})
app.get('/negotiate', (_req, res) => {
  res.format({
    'text/plain': () => res.send(greeting),
    'text/html': () => res.send(`<p>${greeting}</p>`),
    'application/json': () => res.json(greeting),
  })
})
app.get('/search', (req, res) => {
  const query = req.query // a getter that parses again on every read in Express 5: read once
  if (!validSearch(query)) {
    res.status(400).json({ message: ajv.errorsText(validSearch.errors) })
    return
  }
  res.json(query)
})
app.post('/items', express.json(), (req, res) => {
  if (!validItem(req.body)) {
    res.status(400).json({ message: ajv.errorsText(validItem.errors) })
    return
  }
  res.status(201).json(req.body)
})
app.get('/products', (req, res) => {
  const page = pageQuery(req.query as Record<string, string | string[] | undefined>)
  const start = (page.page - 1) * page.limit
  const data = rowsSortedBy(page.field, page.descending).slice(start, start + page.limit)
  res.set('link', pagingLinks(req.originalUrl, page))
  res.json({ data, meta: { page: page.page, limit: page.limit, total: rows.length } })
})
await serveHttp(app.listen(0, '127.0.0.1'))
