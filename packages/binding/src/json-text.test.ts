import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind } from './index.js'
import { hasNoEscapes } from './json-text.js'

describe('hasNoEscapes', () => {
  async function seen(contentType: string, payload: string) {
    const app = await makeApp(
      (request) => ({ noEscapes: hasNoEscapes(request) }),
      {},
      (app) => {
        app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, body))
      },
    )
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': contentType }, payload })
    return res.json().noEscapes
  }

  it('is true for a JSON body whose text has no escape', async () => {
    expect(await seen('application/json', '{"name":"café"}')).toBe(true)
    expect(await seen('application/vnd.api+json', '{"name":"café"}')).toBe(true)
  })

  it('is false when the text has one (any backslash), or when another parser read the body', async () => {
    expect(await seen('application/json', '{"name":"caf\\u00e9"}')).toBe(false)
    expect(await seen('application/json', '{"name":"say \\"hi\\""}')).toBe(false)
    expect(await seen('text/plain', '{"name":"café"}')).toBe(false)
  })

  it('is false for a request whose body was parsed before another one', async () => {
    const app = await makeApp(() => 'ok')
    let first: Parameters<typeof hasNoEscapes>[0] | undefined
    app.addHook('preHandler', async (request) => {
      first ??= request
    })
    const post = (payload: string) =>
      app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload })
    await post('{"a":"x"}')
    expect(hasNoEscapes(first!)).toBe(true)
    await post('{"a":"y"}')
    expect(hasNoEscapes(first!)).toBe(false)
  })
})

describe('a lone surrogate in a JSON body', () => {
  const Named = Type.Object({ name: Type.String() })

  it('is refused right after a body without escapes was bound', async () => {
    const app = await makeApp((request) => bind(request).json(Named))
    const post = (payload: string) =>
      app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload })
    expect((await post('{"name":"plain"}')).statusCode).toBe(200)
    const res = await post('{"name":"a\\ud800"}')
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toContain('lone surrogate')
  })
})
