import { bind } from '@weft/binding'
import { xmlBodies } from '@weft/binding/xml'
import { handle, weftContext } from '@weft/context'
import { fromContext, weftPagination } from '@weft/pagination'

import Fastify = require('fastify')

// typebox is an ES module: a CommonJS file requires it (Node >= 20.19) and imports its types
const { Type } = require('typebox') as typeof import('typebox', { with: { 'resolution-mode': 'import' }})

async function main(): Promise<void> {
  const Item = Type.Object({ id: Type.Integer(), name: Type.String() })
  // binding's typed schema options reach CommonJS projects too (an augmentation of ES-module typebox)
  Type.String({ bindingSource: 'header,query' })
  // @ts-expect-error: 'headers' is not a source name
  Type.String({ bindingSource: 'headers' })
  const app = Fastify()
  await app.register(weftContext)
  await app.register(xmlBodies)
  await app.register(weftPagination)
  app.post(
    '/items/:id',
    handle(async (c) => c.json({ item: await c.bind().all(Item), page: fromContext(c)?.page ?? null })),
  )
  app.get('/plain/:id', async (request) => bind(request).uri(Item))
  const res = await app.inject({
    method: 'POST',
    url: '/items/7?page=2',
    headers: { 'content-type': 'application/xml' },
    payload: '<item><name>Ada</name></item>',
  })
  console.log(res.statusCode, res.body)
}

void main()
