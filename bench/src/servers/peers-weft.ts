// Peer comparison, Weft: the five scenarios as a Weft user writes them (Fastify + @weft/context +
// @weft/binding + @weft/pagination).
import { weftBinding } from '@weft/binding'
import { handle, weftContext } from '@weft/context'
import { fromContext, paginate } from '@weft/pagination'
import Fastify from 'fastify'
import { greeting, Item, paging, rows, rowsSortedBy, Search } from './peers-shared.js'
import { serve } from './serve.js'

const app = Fastify({ logger: false })
await app.register(weftContext)
await app.register(weftBinding)

app.get(
  '/hello',
  handle((c) => c.sendString('hello')),
)
app.get(
  '/negotiate',
  handle((c) => c.format(greeting)),
)
app.get(
  '/search',
  handle(async (c) => c.json(await c.bind().query(Search))),
)
app.post(
  '/items',
  handle(async (c) => c.status(201).json(await c.bind().json(Item))),
)
app.get(
  '/products',
  { onRequest: paginate({ allowedSorts: paging.allowedSorts }) },
  handle((c) => {
    const page = fromContext(c)!
    const [sort] = page.sort
    const start = page.start()
    const data = rowsSortedBy(sort!.field, sort!.order === 'desc').slice(start, start + page.limit)
    const url = c.originalURL()
    // one call: a second links() replaces the Link header, as Fiber's does
    if (page.page > 1) c.links(page.nextPageURL(url), 'next', page.previousPageURL(url), 'prev')
    else c.links(page.nextPageURL(url), 'next')
    c.json({ data, meta: { page: page.page, limit: page.limit, total: rows.length } })
  }),
)
await serve(app)
