import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind } from './index.js'

const User = Type.Object({
  name: Type.String({ json: 'user_name', xml: 'userName', form: 'user_name' }),
  age: Type.Integer({ minimum: 0 }),
  tags: Type.Optional(Type.Array(Type.String())),
})

async function post(contentType: string | undefined, payload: string | Buffer, handler = 'body') {
  const app = await makeApp((request) => {
    const binder = bind(request) as unknown as Record<string, (s: typeof User) => Promise<unknown>>
    return (binder[handler] as (s: typeof User) => Promise<unknown>).call(binder, User)
  })
  const headers = contentType === undefined ? {} : { 'content-type': contentType }
  const res = await app.inject({ method: 'POST', url: '/', headers, payload })
  return { status: res.statusCode, body: res.json() }
}

describe('bind().json()', () => {
  it('maps json tags to properties', async () => {
    const res = await post('application/json', '{"user_name":"Ada","age":36}', 'json')
    expect(res).toEqual({ status: 200, body: { name: 'Ada', age: 36 } })
  })

  it('reports a value of the wrong type as a BindError with its field', async () => {
    const res = await post('application/json', '{"user_name":"Ada","age":"old"}', 'json')
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      code: 'WEFT_BIND_ERROR',
      message: 'cannot bind body field "age": "old" is not an integer',
    })
  })

  it('reports a broken constraint as a ValidationError', async () => {
    const res = await post('application/json', '{"user_name":"Ada","age":-1}', 'json')
    expect(res.body).toMatchObject({ code: 'WEFT_VALIDATION_FAILED', message: 'body/age must be at least 0' })
  })
})

describe('bind().body() by Content-Type', () => {
  it.each([
    ['application/json', '{"user_name":"Ada","age":36}'],
    ['application/json; charset=utf-8', '{"user_name":"Ada","age":36}'],
    ['Application/JSON', '{"user_name":"Ada","age":36}'],
    ['application/vnd.api+json', '{"user_name":"Ada","age":36}'],
    ['application/x-www-form-urlencoded', 'user_name=Ada&age=36'],
    ['application/xml', '<user><userName>Ada</userName><age>36</age></user>'],
    ['text/xml; charset=utf-8', '<?xml version="1.0"?><user><userName>Ada</userName><age>36</age></user>'],
    ['application/atom+xml', '<user><userName>Ada</userName><age>36</age></user>'],
  ])('decodes %s', async (contentType, payload) => {
    expect(await post(contentType, payload)).toEqual({ status: 200, body: { name: 'Ada', age: 36 } })
  })

  it('reads repeated XML elements as a list', async () => {
    const xml = '<user><userName>Ada</userName><age>36</age><tags>a</tags><tags>b</tags></user>'
    expect((await post('application/xml', xml)).body).toEqual({ name: 'Ada', age: 36, tags: ['a', 'b'] })
  })

  it('does not expand entity declarations (no billion laughs)', async () => {
    const entities = ['<!ENTITY a "aaaaaaaaaa">']
    for (let i = 1; i < 8; i++) entities.push(`<!ENTITY ${'a'.repeat(i + 1)} "${`&${'a'.repeat(i)};`.repeat(10)}">`)
    const xml = `<!DOCTYPE u [${entities.join('')}]><user><userName>&aaaaaaaa;</userName><age>1</age></user>`
    const res = await post('application/xml', xml)
    expect(res.status).toBeLessThan(500)
    expect(JSON.stringify(res.body).length).toBeLessThan(1000)
  })

  it('refuses entities a document declares, whatever they would replace', async () => {
    for (const xml of [
      '<!DOCTYPE r [<!ENTITY x "expanded">]><user><userName>&x;</userName><age>1</age></user>',
      '<!DOCTYPE r [<!ENTITY x "expanded">]><user userName="&x;"><age>1</age></user>',
      '<!DOCTYPE r [<!ENTITY lt "HACK">]><user><userName>&lt;</userName><age>1</age></user>',
    ]) {
      const res = await post('application/xml', xml)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ code: 'WEFT_BIND_ERROR', message: expect.stringContaining('declares entities') })
    }
  })

  it('refuses a named entity XML does not predefine', async () => {
    const res = await post('application/xml', '<user><userName>&nbsp;Ada</userName><age>1</age></user>')
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('&nbsp;')
  })

  it('decodes the predefined entities and character references, in text and attributes', async () => {
    const text = await post(
      'application/xml',
      '<user><userName>&#65;&#x64;a &lt;&amp;&gt; &quot;&apos;</userName><age>1</age></user>',
    )
    expect(text).toEqual({ status: 200, body: { name: 'Ada <&> "\'', age: 1 } })
    const attribute = await post('application/xml', '<user userName="&#x1F600;&amp;"><age>1</age></user>')
    expect(attribute).toEqual({ status: 200, body: { name: '\u{1F600}&', age: 1 } })
  })

  it('keeps a CDATA section as written', async () => {
    const res = await post('application/xml', '<user><userName><![CDATA[&lt;&#65;]]></userName><age>1</age></user>')
    expect(res).toEqual({ status: 200, body: { name: '&lt;&#65;', age: 1 } })
  })

  it('refuses a character reference to a character XML does not allow', async () => {
    for (const ref of ['&#0;', '&#x1;', '&#xD800;', '&#x110000;']) {
      const res = await post('application/xml', `<user><userName>a${ref}</userName><age>1</age></user>`)
      expect(res.status).toBe(400)
      expect(res.body.message).toContain('does not allow')
    }
  })

  it('reports malformed XML as a BindError', async () => {
    expect((await post('application/xml', '<user><age>1</user>')).body.code).toBe('WEFT_BIND_ERROR')
  })

  it("answers malformed XML without repeating the client's body", async () => {
    // the parser's message lists every tag left open, and quotes names of any length
    const unclosed = await post('application/xml', `<user>${'<a>'.repeat(100_000)}`)
    expect(unclosed.status).toBe(400)
    expect(unclosed.body).toMatchObject({
      code: 'WEFT_BIND_ERROR',
      message: 'cannot bind body: the XML body ends with elements not closed',
    })
    const longName = await post('application/xml', `<user><${'n'.repeat(100_000)}></b></user>`)
    expect(longName.status).toBe(400)
    expect(longName.body.message.length).toBeLessThan(300)
  })

  it('rejects a Content-Type it cannot decode with 415', async () => {
    const app = await makeApp(
      (request) => bind(request).body(User),
      {},
      (a) => {
        a.addContentTypeParser('text/csv', { parseAs: 'string' }, (_r, body, done) => done(null, body))
      },
    )
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/csv' }, payload: 'a,b' })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({
      code: 'WEFT_UNSUPPORTED_MEDIA_TYPE',
      message: expect.stringContaining('text/csv'),
    })
  })

  it('rejects a JSON body for form() with 415', async () => {
    const res = await post('application/json', '{"user_name":"Ada","age":36}', 'form')
    expect(res.status).toBe(415)
  })
})
