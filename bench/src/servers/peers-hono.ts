// Peer comparison, Hono 4 on @hono/node-server as its users write it: `hono/accepts`,
// `@hono/zod-validator` for the query and the JSON body, paging by hand.
import type { Server } from 'node:http'
import { serve as listen } from '@hono/node-server'
import { zValidator } from '@hono/zod-validator'
import { Hono } from 'hono'
import { accepts } from 'hono/accepts'
import { pageQuery, pagingLinks } from './peers-paging.js'
import { greeting, ItemZod, rows, rowsSortedBy, SearchZod } from './peers-shared.js'
import { serveHttp } from './serve.js'

const app = new Hono()
// Hono's helpers say `charset=UTF-8` for text and no charset for JSON; the others send
// `charset=utf-8`. Both are right, but the answers must be the same bytes: the Content-Type is
// passed in (the helpers keep a Content-Type given that way).
const text = { 'Content-Type': 'text/plain; charset=utf-8' }
const html = { 'Content-Type': 'text/html; charset=utf-8' }
const json = { 'Content-Type': 'application/json; charset=utf-8' }

app.get('/hello', (c) => c.text('hello', 200, text))
app.get('/negotiate', (c) => {
  const type = accepts(c, {
    header: 'Accept',
    supports: ['text/plain', 'text/html', 'application/json'],
    default: 'text/plain',
  })
  c.header('Vary', 'Accept')
  if (type === 'text/html') return c.html(`<p>${greeting}</p>`, 200, html)
  if (type === 'application/json') return c.json(greeting, 200, json)
  return c.text(greeting, 200, text)
})
app.get('/search', zValidator('query', SearchZod), (c) => c.json(c.req.valid('query'), 200, json))
app.post('/items', zValidator('json', ItemZod), (c) => c.json(c.req.valid('json'), 201, json))
app.get('/products', (c) => {
  const page = pageQuery(c.req.queries() as Record<string, string[] | undefined>)
  const start = (page.page - 1) * page.limit
  const data = rowsSortedBy(page.field, page.descending).slice(start, start + page.limit)
  const url = new URL(c.req.url)
  c.header('Link', pagingLinks(url.pathname + url.search, page))
  return c.json({ data, meta: { page: page.page, limit: page.limit, total: rows.length } }, 200, json)
})
// Plain HTTP/1.1 (no `createServer` option): a node:http Server.
await serveHttp(listen({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server)
