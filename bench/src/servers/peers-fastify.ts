// Peer comparison, bare Fastify 5 as its users write it: `schema.querystring` and `schema.body`
// (Fastify's Ajv, coercing query strings), @fastify/accepts for negotiation, paging by hand.
import accepts from '@fastify/accepts'
import Fastify from 'fastify'
import { pageQuery, pagingLinks } from './peers-paging.js'
import { greeting, Item, rows, rowsSortedBy, Search } from './peers-shared.js'
import { serve } from './serve.js'

const app = Fastify({ logger: false })
await app.register(accepts)

app.get('/hello', async (_request, reply) => reply.type('text/plain; charset=utf-8').send('hello'))
app.get('/negotiate', async (request, reply) => {
  reply.header('vary', 'Accept')
  switch (request.type(['text/plain', 'text/html', 'application/json'])) {
    case 'text/html':
      return reply.type('text/html; charset=utf-8').send(`<p>${greeting}</p>`)
    case 'application/json':
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(greeting))
    default:
      return reply.type('text/plain; charset=utf-8').send(greeting)
  }
})
app.get('/search', { schema: { querystring: Search } }, async (request) => request.query)
app.post('/items', { schema: { body: Item } }, async (request, reply) => reply.code(201).send(request.body))
app.get('/products', async (request, reply) => {
  const page = pageQuery(request.query as Record<string, string | string[] | undefined>)
  const start = (page.page - 1) * page.limit
  const data = rowsSortedBy(page.field, page.descending).slice(start, start + page.limit)
  reply.header('link', pagingLinks(request.url, page))
  return { data, meta: { page: page.page, limit: page.limit, total: rows.length } }
})
await serve(app)
