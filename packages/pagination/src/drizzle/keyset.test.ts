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

const render = (page: PageInfo) => {
  const query = paginateQuery(page, { columns, unique: 'id' })
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

  it('throws for a sort field that has no column', () => {
    const page = new PageInfo({ sort: [{ field: 'secret', order: 'asc' }] })
    expect(() => paginateQuery(page, { columns, unique: 'id' })).toThrow(/"secret" has no column/)
  })
})
