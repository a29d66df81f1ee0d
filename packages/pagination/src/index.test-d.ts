import type { IncomingMessage } from 'node:http'
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import { describe, expectTypeOf, it } from 'vitest'
import { items } from '../test/drizzle-schema.js'
import { type PaginatedQuery, paginateQuery } from './drizzle/index.js'
import {
  type CursorValues,
  fromContext,
  type PageInfo,
  type PageInfoJSON,
  type PaginationConfig,
  type PaginationHook,
  paginate,
  type SortField,
  weftPagination,
} from './index.js'

describe('types', () => {
  it('paginate() fits onRequest and preHandler route options', () => {
    const app = Fastify()
    app.get('/a', { onRequest: paginate() }, async () => 'ok')
    app.get('/b', { preHandler: [paginate({ maxLimit: 5 })] }, async () => 'ok')
    app.addHook('onRequest', paginate())
    app.register(weftPagination, { allowedSorts: ['id'], hook: 'preHandler' })
  })

  it('rejects unknown or mistyped config', () => {
    // @ts-expect-error maxLimit is a number
    paginate({ maxLimit: '100' })
    // @ts-expect-error the plugin runs in onRequest or preHandler only
    Fastify().register(weftPagination, { hook: 'onSend' })
    expectTypeOf<PaginationConfig['next']>().toEqualTypeOf<((request: FastifyRequest) => boolean) | undefined>()
  })

  it('fromContext accepts every documented source and may find nothing', () => {
    expectTypeOf(fromContext).toBeCallableWith()
    expectTypeOf(fromContext).toBeCallableWith({} as FastifyRequest)
    expectTypeOf(fromContext).toBeCallableWith({} as FastifyReply)
    expectTypeOf(fromContext).toBeCallableWith({} as IncomingMessage)
    expectTypeOf(fromContext).toBeCallableWith({ request: () => ({}) as FastifyRequest })
    expectTypeOf(fromContext).returns.toEqualTypeOf<PageInfo | undefined>()
    // @ts-expect-error a string is no context
    fromContext('request')
  })

  it("a paginate() hook's fromContext returns a PageInfo, never undefined", () => {
    const paging = paginate()
    expectTypeOf(paging.fromContext({} as FastifyRequest)).toEqualTypeOf<PageInfo>()
    expectTypeOf(paging.fromContext).toBeCallableWith({} as FastifyReply)
    const page = paging.fromContext({} as FastifyRequest)
    expectTypeOf(page.limit).toBeNumber()
  })

  it('types sort fields as the literal allowedSorts of a paginate() config', () => {
    const paging = paginate({ allowedSorts: ['id', 'price'] })
    const page = paging.fromContext({} as FastifyRequest)
    expectTypeOf(page).toEqualTypeOf<PageInfo<'id' | 'price'>>()
    expectTypeOf(page.sort[0]?.field).toEqualTypeOf<'id' | 'price' | undefined>()
    expectTypeOf(page.toJSON().sort).toEqualTypeOf<SortField<'id' | 'price'>[]>()
    page.sortBy('price', 'asc')
    // @ts-expect-error only allowed sort names
    page.sortBy('name', 'asc')
    const fields = ['a', 'b'] as const
    expectTypeOf(paginate({ allowedSorts: fields }).fromContext()).toEqualTypeOf<PageInfo<'a' | 'b'>>()
    const names: string[] = ['a']
    expectTypeOf(paginate({ allowedSorts: names }).fromContext()).toEqualTypeOf<PageInfo>()
    // a typed PageInfo goes wherever a PageInfo does
    expectTypeOf(page).toExtend<PageInfo>()
  })

  it('PageInfo has the documented fields and methods', () => {
    const page = {} as PageInfo
    expectTypeOf(page.sort).toEqualTypeOf<SortField[]>()
    expectTypeOf(page.sort[0]?.order).toEqualTypeOf<'asc' | 'desc' | undefined>()
    expectTypeOf(page.sortBy('id', 'desc')).toEqualTypeOf<PageInfo>()
    expectTypeOf(page.start()).toBeNumber()
    expectTypeOf(page.cursorValues()).toEqualTypeOf<CursorValues>()
    expectTypeOf(page.setNextCursor).parameter(0).toEqualTypeOf<CursorValues>()
    expectTypeOf(page.nextCursorURLWithKeys).parameters.toEqualTypeOf<[string, string, string]>()
    expectTypeOf(page.toJSON()).toEqualTypeOf<PageInfoJSON>()
    // @ts-expect-error order is asc or desc
    page.sortBy('id', 'down')
  })

  it('paginateQuery checks the unique field against the column map and keeps row types', () => {
    const page = {} as PageInfo
    const query = paginateQuery(page, { columns: { id: items.id, price: items.price }, unique: 'id' })
    expectTypeOf(query).toEqualTypeOf<PaginatedQuery>()
    expectTypeOf(query.finish([{ id: 1, price: 2 }])).toEqualTypeOf<{ id: number; price: number }[]>()
    // @ts-expect-error unique must be one of the mapped fields
    paginateQuery(page, { columns: { id: items.id }, unique: 'uuid' })
  })

  it('paginateQuery wants a column for every sort a typed page may have', () => {
    const page = {} as PageInfo<'id' | 'price' | 'name'>
    paginateQuery(page, { columns: { id: items.id, price: items.price, name: items.price }, unique: 'id' })
    // @ts-expect-error 'name' may be sorted by, and has no column
    paginateQuery(page, { columns: { id: items.id, price: items.price }, unique: 'id' })
  })

  it('paginate() takes only an allowed sort as defaultSort', () => {
    paginate({ allowedSorts: ['id', 'price'], defaultSort: 'price' })
    // @ts-expect-error 'nmae' is not an allowed sort
    paginate({ allowedSorts: ['id', 'price'], defaultSort: 'nmae' })
    expectTypeOf(paginate({ defaultSort: 'name' })).toEqualTypeOf<PaginationHook<string>>()
  })
})
