import { bind } from '@weft/binding'
import { xmlBodies } from '@weft/binding/xml'
import { handle, weftContext } from '@weft/context'
import { fromContext, weftPagination } from '@weft/pagination'
import Fastify from 'fastify'
import { Type } from 'typebox'

async function main(): Promise<void> {
  const Item = Type.Object({ id: Type.Integer(), name: Type.String() })
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
