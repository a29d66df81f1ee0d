// `bind().json()` against Fastify's own JSON body + schema validation, on the same 10-field body,
// through `app.inject` (both routes share Fastify's JSON parser; what differs is who turns the parsed
// object into checked values: Fastify's Ajv-compiled body schema, or @weft/binding).
import { bind, weftBinding } from '@weft/binding'
import Fastify from 'fastify'
import { Item as Product, itemBody as payload } from '../servers/peers-shared.js'
import type { MicroSuite } from './rounds.js'

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
