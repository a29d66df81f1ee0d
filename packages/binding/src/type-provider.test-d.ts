import Fastify from 'fastify'
import { Type } from 'typebox'
import { describe, expectTypeOf, it } from 'vitest'
import { FileField, type FileHeader, routeRequest, type WeftTypeProvider } from './index.js'

const Search = Type.Object({
  dryRun: Type.Boolean({ query: 'dry_run', default: false }),
  colors: Type.Array(Type.String(), { query: 'colors' }),
  role: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('user')])),
})
const Params = Type.Object({ id: Type.Integer({ uri: 'product_id' }) })
const Headers = Type.Object({ token: Type.String({ header: 'X-Token' }) })
const Body = Type.Object({ title: Type.String({ json: 'Title' }), avatar: Type.Optional(FileField()) })

describe('WeftTypeProvider', () => {
  it('types request parts as the Static<> of their Weft schemas', () => {
    const app = Fastify().withTypeProvider<WeftTypeProvider>()
    app.post(
      '/products/:product_id',
      { schema: { querystring: Search, params: Params, headers: Headers, body: Body } },
      (request) => {
        expectTypeOf(request.query).toEqualTypeOf<{ dryRun: boolean; colors: string[]; role?: 'admin' | 'user' }>()
        expectTypeOf(request.params).toEqualTypeOf<{ id: number }>()
        expectTypeOf(request.headers.token).toEqualTypeOf<string>()
        expectTypeOf(request.body.title).toEqualTypeOf<string>()
        expectTypeOf(request.body.avatar).toEqualTypeOf<FileHeader | undefined>()
        return 'ok'
      },
    )
  })

  it('types hooks of the route as well', () => {
    const app = Fastify().withTypeProvider<WeftTypeProvider>()
    app.get('/search', {
      schema: { querystring: Search },
      preHandler: async (request) => {
        expectTypeOf(request.query.dryRun).toEqualTypeOf<boolean>()
      },
      handler: async (request) => request.query.colors.join(','),
    })
  })

  it('refuses a property the schema does not have', () => {
    const app = Fastify().withTypeProvider<WeftTypeProvider>()
    app.get('/search', { schema: { querystring: Search } }, (request) => {
      // @ts-expect-error dry_run is the wire name, not a property
      return request.query.dry_run
    })
  })

  it('leaves parts without a schema unknown', () => {
    const app = Fastify().withTypeProvider<WeftTypeProvider>()
    app.get('/plain', (request) => {
      expectTypeOf(request.query).toEqualTypeOf<unknown>()
      return 'ok'
    })
  })
})

describe('routeRequest', () => {
  it('types a request (or a Ctx-like) by the route schema it is given', () => {
    const schema = { querystring: Search, params: Params }
    const c = { request: () => ({}) as import('fastify').FastifyRequest }
    const request = routeRequest(schema, c)
    expectTypeOf(request.query.dryRun).toEqualTypeOf<boolean>()
    expectTypeOf(request.params.id).toEqualTypeOf<number>()
    expectTypeOf(request.body).toEqualTypeOf<unknown>()
    // @ts-expect-error not a property of the schema
    request.query.dry_run
  })
})
