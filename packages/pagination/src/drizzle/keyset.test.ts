import { boolean, integer, PgDialect, pgTable, text } from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import { PageInfo } from '../index.js'
import { paginateQuery } from './index.js'

const t = pgTable('t', {
  id: integer('id').primaryKey(),
  price: integer('price').notNull(),
  name: text('name'),
  active: boolean('active').notNull(),
})
const columns = { id: t.id, price: t.price, name: t.name, active: t.active }
const dialect = new PgDialect()

function cursorPage(sort: PageInfo['sort'], values: Record<string, unknown>): PageInfo {
  const issuer = new PageInfo({ sort })
  issuer.setNextCursor(values)
  return new PageInfo({ sort, cursor: issuer.nextCursor })
}

const render = (page: PageInfo, options: { nulls?: 'first' | 'last'; nullFlags?: boolean } = {}) => {
  const query = paginateQuery(page, { columns, unique: 'id', ...options })
  return {
    where: query.where && dialect.sqlToQuery(query.where),
    orderBy: query.orderBy.map((term) => dialect.sqlToQuery(term).sql),
    limit: query.limit,
    offset: query.offset,
  }
}

describe('paginateQuery SQL', () => {
  it('orders by the sort then the unique column, fetching limit + 1 from start()', () => {
    const page = new PageInfo({ page: 3, limit: 20, sort: [{ field: 'price', order: 'desc' }] })
    expect(render(page)).toEqual({
      where: undefined,
      orderBy: ['"t"."price" desc', '"t"."id" desc'],
      limit: 21,
      offset: 40,
    })
  })

  it('does not repeat the unique column and ignores what follows it', () => {
    const page = new PageInfo({
      sort: [
        { field: 'id', order: 'asc' },
        { field: 'price', order: 'asc' },
      ],
    })
    expect(render(page).orderBy).toEqual(['"t"."id" asc'])
  })

  it('uses a row comparison when every column is NOT NULL and sorted the same way', () => {
    const page = cursorPage([{ field: 'price', order: 'asc' }], { price: 5, id: 9 })
    expect(render(page).where).toMatchObject({ sql: '("t"."price", "t"."id") > ($1, $2)', params: [5, 9] })
  })

  it('uses the null-aware expanded form for nullable columns', () => {
    const page = cursorPage([{ field: 'name', order: 'asc' }], { name: 'b', id: 3 })
    expect(render(page).where?.sql).toBe(
      '(("t"."name" > $1 or "t"."name" is null) or ("t"."name" = $2 and "t"."id" > $3))',
    )
    expect(render(page).orderBy).toEqual(['"t"."name" asc nulls last', '"t"."id" asc'])
  })

  it('after a null with nulls last, only rows tied on null with a greater key follow', () => {
    const page = cursorPage([{ field: 'name', order: 'desc' }], { name: null, id: 3 })
    expect(render(page).where?.sql).toBe('("t"."name" is null and "t"."id" < $1)')
  })

  it('uses the expanded form for mixed directions', () => {
    const sort: PageInfo['sort'] = [
      { field: 'active', order: 'desc' },
      { field: 'price', order: 'asc' },
    ]
    const { where } = render(cursorPage(sort, { active: true, price: 2, id: 1 }))
    expect(where?.sql).toBe(
      '("t"."active" < $1 or ("t"."active" = $2 and ("t"."price" > $3 or ("t"."price" = $4 and "t"."id" < $5))))',
    )
    expect(where?.params).toEqual([true, true, 2, 2, 1])
  })

  describe('with nullFlags', () => {
    const flags = { nullFlags: true }

    it.each([
      ['asc', 'last', 'num_nulls("t"."name") asc'],
      ['desc', 'last', 'num_nonnulls("t"."name") desc'],
      ['asc', 'first', 'num_nonnulls("t"."name") asc'],
      ['desc', 'first', 'num_nulls("t"."name") desc'],
    ] as const)('orders a nullable column %s, nulls %s, by its flag first', (order, nulls, flag) => {
      const page = new PageInfo({ sort: [{ field: 'name', order }] })
      expect(render(page, { ...flags, nulls }).orderBy).toEqual([flag, `"t"."name" ${order}`, `"t"."id" ${order}`])
    })

    it('leaves NOT NULL columns as they are', () => {
      const page = cursorPage([{ field: 'price', order: 'desc' }], { price: 5, id: 9 })
      expect(render(page, flags)).toMatchObject({
        where: { sql: '("t"."price", "t"."id") < ($1, $2)', params: [5, 9] },
        orderBy: ['"t"."price" desc', '"t"."id" desc'],
      })
    })

    it.each([
      ['asc', 'last', '(num_nulls("t"."name"), "t"."name", "t"."id") > (0, $1, $2)'],
      ['desc', 'last', '(num_nonnulls("t"."name"), "t"."name", "t"."id") < (1, $1, $2)'],
      ['asc', 'first', '(num_nonnulls("t"."name"), "t"."name", "t"."id") > (1, $1, $2)'],
      ['desc', 'first', '(num_nulls("t"."name"), "t"."name", "t"."id") < (0, $1, $2)'],
    ] as const)(
      'after a value (%s, nulls %s): one row comparison over the flag and the columns',
      (order, nulls, where) => {
        const page = cursorPage([{ field: 'name', order }], { name: 'b', id: 3 })
        expect(render(page, { ...flags, nulls }).where).toMatchObject({ sql: where, params: ['b', 3] })
      },
    )

    it('after a null with nulls last: equalities on the flag and the column, then the row comparison', () => {
      const page = cursorPage([{ field: 'name', order: 'desc' }], { name: null, id: 3 })
      expect(render(page, flags).where).toMatchObject({
        sql: '(num_nonnulls("t"."name") = 0 and "t"."name" is null and ("t"."id") < ($1))',
        params: [3],
      })
    })

    it('after a null with nulls first, and for mixed directions: the expanded form', () => {
      const afterNull = cursorPage([{ field: 'name', order: 'asc' }], { name: null, id: 3 })
      expect(render(afterNull, { ...flags, nulls: 'first' }).where?.sql).toBe(
        '("t"."name" is not null or ("t"."name" is null and "t"."id" > $1))',
      )
      const sort: PageInfo['sort'] = [
        { field: 'name', order: 'desc' },
        { field: 'price', order: 'asc' },
      ]
      expect(render(cursorPage(sort, { name: 'b', price: 2, id: 1 }), flags).where?.sql).toBe(
        render(cursorPage(sort, { name: 'b', price: 2, id: 1 })).where?.sql,
      )
    })
  })

  it('throws for a sort field that has no column', () => {
    // an untyped page (as JavaScript, or a PageInfo<string>, passes it): checked at run time
    const page = new PageInfo<string>({ sort: [{ field: 'secret', order: 'asc' }] })
    expect(() => paginateQuery(page, { columns, unique: 'id' })).toThrow(/"secret" has no column/)
  })
})
