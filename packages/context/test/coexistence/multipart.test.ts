import fastifyMultipart from '@fastify/multipart'
import { FileField } from '@weft/binding'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { handle } from '../../src/index.js'
import { multipart } from '../multipart.js'
import { appWith, orders } from './apps.js'

const Upload = Type.Object({ title: Type.String(), doc: FileField() })

const upload = multipart({ title: 'Report' }, [
  { field: 'doc', filename: 'r.txt', type: 'text/plain', content: 'hello' },
])

describe.each(orders)('@fastify/multipart (%s)', (order) => {
  it.each([
    ['no options', {}, 'r.txt'],
    ['attachFieldsToBody: true', { attachFieldsToBody: true }, 'r.txt'],
    ["attachFieldsToBody: 'keyValues'", { attachFieldsToBody: 'keyValues' }, ''],
  ])('with %s: boots, and c.bind().form() binds fields and files', async (_name, options, filename) => {
    const app = await appWith(order, fastifyMultipart, options)
    app.post(
      '/',
      handle(async (c) => {
        const out = await c.bind().form(Upload)
        return c.json({ title: out.title, file: [out.doc.filename, out.doc.buffer.toString()] })
      }),
    )
    const res = await app.inject({ method: 'POST', url: '/', ...upload })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ title: 'Report', file: [filename, 'hello'] })
  })

  it('leaves its own API to plain handlers (request.file())', async () => {
    const app = await appWith(order, fastifyMultipart)
    app.post('/', async (request) => {
      const file = await request.file()
      return { name: file?.filename, text: (await file?.toBuffer())?.toString() }
    })
    const res = await app.inject({ method: 'POST', url: '/', ...upload })
    expect([res.statusCode, res.json()]).toEqual([200, { name: 'r.txt', text: 'hello' }])
  })

  it('answers its own 413 for a file over its limit', async () => {
    const app = await appWith(order, fastifyMultipart, { limits: { fileSize: 2 } })
    app.post(
      '/',
      handle(async (c) => c.json(await c.bind().form(Upload))),
    )
    const res = await app.inject({ method: 'POST', url: '/', ...upload })
    expect(res.statusCode).toBe(413)
  })
})
