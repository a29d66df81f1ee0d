import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind, type ParserConfig, setParserDecoder } from './index.js'

async function queryWith(config: ParserConfig, schema: Parameters<ReturnType<typeof bind>['query']>[0], qs: string) {
  const app = await makeApp(
    (request) => bind(request).query(schema),
    {},
    (a) => setParserDecoder(a, config),
  )
  const res = await app.inject({ url: `/?${qs}` })
  return res.json()
}

describe('setParserDecoder()', () => {
  const Page = Type.Object({ page: Type.Integer({ default: 1 }), flag: Type.Optional(Type.Boolean()) })

  it('ignores unknown keys by default', async () => {
    expect(await queryWith({}, Page, 'page=2&extra=1')).toEqual({ page: 2 })
  })

  it('rejects unknown keys with ignoreUnknownKeys: false', async () => {
    expect(await queryWith({ ignoreUnknownKeys: false }, Page, 'page=2&extra=1')).toMatchObject({
      code: 'WEFT_BIND_ERROR',
      message: 'cannot bind query field "extra": unknown key "extra"',
    })
  })

  it('rejects unknown JSON keys with ignoreUnknownKeys: false', async () => {
    const app = await makeApp((request) => bind(request).json(Page), { parserDecoder: { ignoreUnknownKeys: false } })
    const res = await app.inject({ method: 'POST', url: '/', payload: { page: 1, nope: true } })
    expect(res.json().message).toContain('unknown key "nope"')
  })

  it('reads an empty value as the zero value with zeroEmpty', async () => {
    expect(await queryWith({ zeroEmpty: true }, Page, 'page=&flag=')).toEqual({ page: 0, flag: false })
  })

  it('applies settings changed after a first request bound the same schema', async () => {
    const app = await makeApp((request) => bind(request).query(Page))
    expect((await app.inject({ url: '/?page=' })).statusCode).toBe(400)
    setParserDecoder(app, { zeroEmpty: true })
    expect((await app.inject({ url: '/?page=' })).json()).toEqual({ page: 0 })
  })

  it('keeps the settings of each app apart when both bind the same schema in turn', async () => {
    const plain = await makeApp((request) => bind(request).query(Page))
    const zero = await makeApp((request) => bind(request).query(Page), { parserDecoder: { zeroEmpty: true } })
    for (let i = 0; i < 2; i++) {
      expect((await zero.inject({ url: '/?page=' })).json()).toEqual({ page: 0 })
      expect((await plain.inject({ url: '/?page=' })).statusCode).toBe(400)
    }
  })

  it('keeps the JSON settings of each app apart when both bind the same schema in turn', async () => {
    const plain = await makeApp((request) => bind(request).json(Page))
    const strict = await makeApp((request) => bind(request).json(Page), { parserDecoder: { ignoreUnknownKeys: false } })
    const body = { method: 'POST' as const, url: '/', payload: { page: 2, nope: true } }
    for (let i = 0; i < 2; i++) {
      expect((await plain.inject(body)).json()).toEqual({ page: 2 })
      expect((await strict.inject(body)).json().message).toContain('unknown key "nope"')
    }
  })

  it('keeps the XML converters of each app apart when both bind the same schema in turn', async () => {
    const Stamp = Type.Object({ at: Type.String({ format: 'unix' }) })
    const unix = (s: string) => new Date(Number(s) * 1000).toISOString()
    const plain = await makeApp((request) => bind(request).xml(Stamp))
    const converting = await makeApp((request) => bind(request).xml(Stamp), {
      parserDecoder: { parserType: [{ customType: 'unix', converter: unix }] },
    })
    const body = {
      method: 'POST' as const,
      url: '/',
      headers: { 'content-type': 'application/xml' },
      payload: '<s><at>0</at></s>',
    }
    for (let i = 0; i < 2; i++) {
      expect((await converting.inject(body)).json()).toEqual({ at: '1970-01-01T00:00:00.000Z' })
      expect((await plain.inject(body)).json()).toEqual({ at: '0' })
    }
  })

  it('converts by format with parserType converters', async () => {
    const unix = (s: string) => new Date(Number(s) * 1000).toISOString()
    const schema = Type.Object({ at: Type.String({ format: 'unix' }) })
    expect(await queryWith({ parserType: [{ customType: 'unix', converter: unix }] }, schema, 'at=0')).toEqual({
      at: '1970-01-01T00:00:00.000Z',
    })
  })

  it('turns strings into Date objects with a converter and an untyped date schema', async () => {
    const toDate = (s: string) => {
      const date = new Date(s)
      if (Number.isNaN(date.getTime())) throw new Error('not a date')
      return date
    }
    const schema = Type.Object({ since: Type.Unsafe<Date>({ format: 'date-time' }) })
    const app = await makeApp(
      async (request) => {
        const { since } = await bind(request).query(schema)
        return { isDate: since instanceof Date, year: since.getUTCFullYear() }
      },
      { parserDecoder: { parserType: [{ customType: 'date-time', converter: toDate }] } },
    )
    expect((await app.inject({ url: '/?since=2024-05-01T10:00:00Z' })).json()).toEqual({ isDate: true, year: 2024 })
    expect((await app.inject({ url: '/?since=soon' })).json().code).toBe('WEFT_BIND_ERROR')
  })

  it('reports a converter failure as a BindError', async () => {
    const config = {
      parserType: [
        {
          customType: 'even',
          converter: (s: string) => {
            if (Number(s) % 2) throw new Error('odd')
            return s
          },
        },
      ],
    }
    expect((await queryWith(config, Type.Object({ n: Type.String({ format: 'even' }) }), 'n=3')).code).toBe(
      'WEFT_BIND_ERROR',
    )
  })

  it('reads another tag with setAliasTag', async () => {
    const schema = Type.Object({ pageSize: Type.Integer({ query: 'limit', q: 'size' }) })
    expect(await queryWith({ setAliasTag: 'q' }, schema, 'size=3&limit=9')).toEqual({ pageSize: 3 })
  })
})
