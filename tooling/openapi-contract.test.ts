import swagger from '@fastify/swagger'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { watchContract } from './openapi-contract.js'

/**
 * An app whose document promises `{ id: integer }` with 200 and an error body (`code`, `data: null`) with 4XX on
 * GET /items/{id}.
 */
async function appWithDocument(answer: (id: string) => { status: number; body: unknown }, openapi = '3.0.3') {
  const app = Fastify()
  await app.register(swagger, { openapi: { openapi, info: { title: 't', version: '1' } } })
  app.get<{ Params: { id: string } }>(
    '/items/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'string' } } },
        response: {
          200: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
          '4XX': {
            type: 'object',
            required: ['code', 'data'],
            properties: { code: { type: 'string' }, data: { type: 'null' } },
          },
        },
      },
    },
    async (request, reply) => {
      const { status, body } = answer(request.params.id)
      // Bypass the response serializer, as a handler that sends a string would.
      return reply.status(status).type('application/json').send(JSON.stringify(body))
    },
  )
  return app
}

describe('watchContract', () => {
  it('passes responses that match the document', async () => {
    const app = await appWithDocument((id) =>
      id === '1' ? { status: 200, body: { id: 1 } } : { status: 404, body: { code: 'NOT_FOUND', data: null } },
    )
    const contract = watchContract(app)
    expect((await app.inject({ method: 'GET', url: '/items/1' })).statusCode).toBe(200)
    expect((await app.inject({ method: 'GET', url: '/items/2?x=1' })).statusCode).toBe(404)
    expect(contract.checked).toBe(2)
    expect(contract.violations).toEqual([])
  })

  it('reports a body that does not match its schema', async () => {
    const app = await appWithDocument(() => ({ status: 200, body: { id: 'one' } }))
    const contract = watchContract(app)
    await app.inject({ method: 'GET', url: '/items/1' })
    expect(contract.violations).toEqual(['GET /items/1 -> 200: /id must be integer'])
  })

  it('reports a status the document does not name', async () => {
    const app = await appWithDocument(() => ({ status: 503, body: { code: 'UNAVAILABLE', data: null } }))
    const contract = watchContract(app)
    await app.inject('/items/1')
    expect(contract.violations).toEqual(['GET /items/1 -> 503: status not documented (documented: 200, 4XX)'])
  })

  it('checks error bodies against the range they fall in', async () => {
    const app = await appWithDocument(() => ({ status: 409, body: { message: 'taken', data: null } }))
    const contract = watchContract(app)
    await app.inject('/items/1')
    expect(contract.violations).toEqual(["GET /items/1 -> 409: (root) must have required property 'code'"])
  })

  it.each([
    // @fastify/swagger writes 3.0's "null only" as `nullable: true, enum: [null]`; 3.1 keeps `type: 'null'`.
    ['3.0.3', 'must be equal to one of the allowed values'],
    ['3.1.0', 'must be null'],
  ])('holds "no data" to null in an OpenAPI %s document', async (version, message) => {
    const app = await appWithDocument(() => ({ status: 404, body: { code: 'NOT_FOUND', data: { id: 1 } } }), version)
    const contract = watchContract(app)
    await app.inject('/items/1')
    expect(contract.violations).toEqual([`GET /items/1 -> 404: /data ${message}`])
  })
})
