// `bind().json()` against Fastify's own JSON body + schema validation, on the same 10-field body,
// through `app.inject` (both routes share Fastify's JSON parser; what differs is who turns the parsed
// object into checked values: Fastify's Ajv-compiled body schema, or @weft/binding).
import { bind, weftBinding } from '@weft/binding'
import Fastify from 'fastify'
import { Type } from 'typebox'
import type { MicroSuite } from './rounds.js'

const Product = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 2000 }),
  amount: Type.Integer({ minimum: 0 }),
  price: Type.Number({ minimum: 0 }),
  published: Type.Boolean(),
  tags: Type.Array(Type.String(), { maxItems: 20 }),
  ratings: Type.Array(Type.Integer({ minimum: 1, maximum: 5 })),
  category: Type.String({ enum: ['books', 'games', 'tools'] }),
  sku: Type.String({ pattern: '^[A-Z]{3}-[0-9]{4}$' }),
  dimensions: Type.Object({ width: Type.Number(), height: Type.Number(), unit: Type.String() }),
})

const payload = JSON.stringify({
  title: 'Mechanical keyboard',
  description: 'Tenkeyless, hot-swappable switches, PBT keycaps.',
  amount: 42,
  price: 129.5,
  published: true,
  tags: ['keyboard', 'mechanical', 'usb-c'],
  ratings: [5, 4, 5, 3],
  category: 'tools',
  sku: 'KBD-0042',
  dimensions: { width: 36.5, height: 13.2, unit: 'cm' },
})

/** Builds the suite (two routes on one app, called through `inject`). */
export async function jsonBodySuite(): Promise<MicroSuite> {
  const app = Fastify({ logger: false })
  await app.register(weftBinding)
  app.post('/fastify', { schema: { body: Product } }, async (request) => request.body)
  app.post('/weft', async (request) => bind(request).json(Product))
  await app.ready()
  const call = (url: string) => async () => {
    const response = await app.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': 'application/json' },
    })
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`)
  }
  await call('/fastify')()
  await call('/weft')()
  return {
    id: 'binding-json',
    title: 'bind().json() vs Fastify JSON body + schema (10 fields, inject)',
    tasks: [
      { name: 'fastify body schema (ajv)', fn: call('/fastify') },
      { name: 'weft bind().json()', fn: call('/weft') },
    ],
  }
}
