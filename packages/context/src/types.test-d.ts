import type { Binder, FileHeader, MultipartForm } from '@weft/binding'
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { describe, expectTypeOf, it } from 'vitest'
import {
  type Cookie,
  type CookieSameSite,
  type Ctx,
  ctx,
  type Handler,
  handle,
  type Range,
  type WeftContextOptions,
  weftContext,
} from './index.js'

describe('request.ctx', () => {
  it('is a Ctx, or undefined in a scope without weftContext; ctx(request, reply) is a Ctx', () => {
    expectTypeOf<FastifyRequest['ctx']>().toEqualTypeOf<Ctx | undefined>()
    expectTypeOf(ctx).returns.toEqualTypeOf<Ctx>()
  })

  it('is read-only', () => {
    const app = Fastify()
    app.get('/', async (request) => {
      // @ts-expect-error request.ctx cannot be replaced
      request.ctx = {} as Ctx
    })
  })
})

describe('plugin options', () => {
  it('are typed', async () => {
    const app = Fastify()
    await app.register(weftContext, { proxyHeader: 'X-Real-IP', subdomainOffset: 3, immutable: true, root: '/srv' })
    // @ts-expect-error subdomainOffset is a number
    await app.register(weftContext, { subdomainOffset: '2' })
    // @ts-expect-error views must have render()
    await app.register(weftContext, { views: {} })
    expectTypeOf<WeftContextOptions['storage']>().toEqualTypeOf<import('./options.js').Storage | undefined>()
  })

  it('take @weft/binding options under binding, and decorateRequest', async () => {
    const app = Fastify()
    await app.register(weftContext, { binding: { multipart: false, emptyJsonBody: 'error' }, decorateRequest: false })
    // @ts-expect-error emptyJsonBody is 'absent' or 'error'
    await app.register(weftContext, { binding: { emptyJsonBody: 'none' } })
  })

  it('types the route name in config', () => {
    const app = Fastify()
    app.get(
      '/u/:id',
      { config: { name: 'user.show' } },
      handle((c) => c.sendString('x')),
    )
    // @ts-expect-error a route name is a string
    app.get('/v', { config: { name: 1 } }, async () => 'x')
  })
})

describe('handle and Ctx methods', () => {
  it('builds a Fastify handler from Ctx functions', () => {
    const guard: Handler = (c) => c.next()
    expectTypeOf(handle(guard, (c) => c.json({}))).toBeCallableWith({} as FastifyRequest, {} as FastifyReply)
    expectTypeOf<Parameters<Handler>[0]>().toEqualTypeOf<Ctx>()
  })

  it('returns typed values', () => {
    const c = {} as Ctx
    const Params = Type.Object({ id: Type.Integer({ params: 'id' }) })
    expectTypeOf(c.paramsParser(Params)).resolves.toEqualTypeOf<{ id: number }>()
    expectTypeOf(c.bind()).toEqualTypeOf<Binder>()
    expectTypeOf(c.bind({ title: 'x' })).toEqualTypeOf<Ctx>()
    expectTypeOf(c.status(200).vary('Accept')).toEqualTypeOf<Ctx>()
    expectTypeOf(c.range(10)).toEqualTypeOf<Range>()
    expectTypeOf(c.queryInt('n')).toEqualTypeOf<number>()
    expectTypeOf(c.accepts('json', 'html')).toEqualTypeOf<string>()
    expectTypeOf(c.formFile('f')).resolves.toEqualTypeOf<FileHeader>()
    expectTypeOf(c.multipartForm()).resolves.toEqualTypeOf<MultipartForm>()
    expectTypeOf(c.locals<number>('n')).toEqualTypeOf<number>()
    expectTypeOf(c.userContext<{ traceId: string }>()).toEqualTypeOf<{ traceId: string }>()
    expectTypeOf(c.request()).toEqualTypeOf<FastifyRequest>()
    expectTypeOf(c.response()).toEqualTypeOf<FastifyReply>()
  })
})

describe('cookies', () => {
  it('types sameSite as the values it takes', () => {
    const c = {} as Ctx
    c.cookie({ name: 'sid', value: 'x', sameSite: 'Lax' })
    c.cookie({ name: 'sid', value: 'x', sameSite: 'strict' })
    // @ts-expect-error a typo of Lax is not a sameSite value
    c.cookie({ name: 'sid', value: 'x', sameSite: 'Laxx' })
    // @ts-expect-error clearCookie's options take the same values
    c.clearCookie('sid', { sameSite: 'Lacks' })
    expectTypeOf<NonNullable<Cookie['sameSite']>>().toEqualTypeOf<CookieSameSite>()
  })
})

describe('send', () => {
  it('takes bytes, a string, or a value to send as JSON', () => {
    const c = {} as Ctx
    expectTypeOf(c.send(new Uint8Array(1))).toEqualTypeOf<Ctx>()
    expectTypeOf(c.status(201).send({ id: 1 })).toEqualTypeOf<Ctx>()
    expectTypeOf(c.send('text')).toEqualTypeOf<Ctx>()
  })
})
