import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { firstRefusedKey } from './forbidden-keys.js'
import { weftBinding } from './index.js'

let app: FastifyInstance
afterEach(() => app?.close())

async function start(options: FastifyServerOptions = {}) {
  app = Fastify(options)
  await app.register(weftBinding)
  app.post('/echo', async (request) => ({ body: request.body ?? null }))
  return app
}

const send = (payload: string, contentType = 'application/json') =>
  app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': contentType }, payload })

describe('a JSON body with a prototype key', () => {
  it.each([
    ['{"name":"a","__proto__":{"admin":true}}', 'body/__proto__'],
    ['{"user":{"__proto__":{"admin":true}}}', 'body/user/__proto__'],
    ['{"list":[1,{"constructor":{"prototype":{"admin":true}}}]}', 'body/list/1/constructor'],
    ['{"a/b":{"__proto__":1}}', 'body/a~1b/__proto__'],
    ['{"first":{"__proto__":1},"second":{"__proto__":2}}', 'body/first/__proto__'],
  ])('%s is a 400 naming the key, not "not valid JSON"', async (payload, named) => {
    await start()
    const res = await send(payload)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      code: 'WEFT_VALIDATION_FAILED',
      message: `${named} must not be used as a field name`,
    })
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
  })

  it('names the key for +json media types too', async () => {
    await start()
    const res = await send('{"__proto__":{}}', 'application/problem+json')
    expect(res.json()).toMatchObject({
      code: 'WEFT_VALIDATION_FAILED',
      message: 'body/__proto__ must not be used as a field name',
    })
  })

  it('keeps "not valid JSON" for a body that is not JSON', async () => {
    await start()
    const res = await send('{"__proto__":')
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('FST_ERR_CTP_INVALID_JSON_BODY')
  })

  it('follows the app: a constructor without a prototype, or keys Fastify is told to remove, pass', async () => {
    await start()
    expect((await send('{"constructor":{"name":"x"}}')).json()).toEqual({ body: { constructor: { name: 'x' } } })
    await app.close()
    await start({ onProtoPoisoning: 'remove' })
    expect((await send('{"a":1,"__proto__":{"admin":true}}')).json()).toEqual({ body: { a: 1 } })
  })

  it('finds the key in a body nested 10,000 deep without recursion', () => {
    const deep = JSON.parse(`${'['.repeat(10_000)}{"__proto__":1}${']'.repeat(10_000)}`)
    expect(firstRefusedKey(deep, { proto: true, constructor: true })).toBe(`${'/0'.repeat(10_000)}/__proto__`)
  })
})
