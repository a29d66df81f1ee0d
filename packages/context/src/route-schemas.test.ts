import { routeRequest } from '@weft/binding'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { handle } from './index.js'

const Search = Type.Object({
  dryRun: Type.Boolean({ query: 'dry_run', default: false }),
  limit: Type.Integer({ query: 'limit', default: 20, maximum: 100 }),
})
const Params = Type.Object({ id: Type.Integer({ params: 'user_id' }) })

describe('route schemas with Weft tags in handle() chains', () => {
  it('a chain reads the bound, typed values through routeRequest(schema, c)', async () => {
    const app = await makeApp()
    const schema = { querystring: Search, params: Params }
    app.get(
      '/users/:user_id',
      { schema },
      handle((c) => {
        const request = routeRequest(schema, c)
        return c.json({ id: request.params.id, dryRun: request.query.dryRun, limit: request.query.limit })
      }),
    )
    expect((await app.inject('/users/7?dry_run=true')).json()).toEqual({ id: 7, dryRun: true, limit: 20 })
  })

  it("the context's parsers of the route's own schemas give the values Fastify bound", async () => {
    const app = await makeApp()
    app.get(
      '/users/:user_id',
      { schema: { querystring: Search, params: Params } },
      handle(async (c) => c.json({ params: await c.paramsParser(Params), query: await c.queryParser(Search) })),
    )
    expect((await app.inject('/users/7?limit=5')).json()).toEqual({
      params: { id: 7 },
      query: { dryRun: false, limit: 5 },
    })
  })

  it('a failure reaches the client with the code the parsers give', async () => {
    const app = await makeApp()
    app.get(
      '/users/:user_id',
      { schema: { params: Params } },
      handle((c) => c.sendStatus(204)),
    )
    const res = await app.inject('/users/abc')
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WEFT_BIND_ERROR')
  })
})
