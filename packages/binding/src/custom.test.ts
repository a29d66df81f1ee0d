import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind, type CustomBinder, registerCustomBinder } from './index.js'

// "k: v" lines, a tiny format of our own
const lines: CustomBinder = {
  name: 'lines',
  mimeTypes: ['text/x-lines'],
  parse(request) {
    const out: Record<string, unknown> = {}
    for (const line of String(request.body).split('\n')) {
      const [key, value] = line.split(':').map((s) => s.trim())
      if (key === undefined || value === undefined) throw new Error(`bad line "${line}"`)
      out[key] = Number.isNaN(Number(value)) ? value : Number(value)
    }
    return out
  },
}

const Schema = Type.Object({ name: Type.String(), qty: Type.Integer({ maximum: 10 }) })

async function linesApp(op: (request: Parameters<typeof bind>[0]) => Promise<unknown>, viaOption: boolean) {
  // the binder's MIME type needs no parser of the app's: registering the binder adds one
  return makeApp(op, viaOption ? { customBinders: [lines] } : {}, (app) => {
    if (!viaOption) registerCustomBinder(app, lines)
  })
}

describe('custom binders', () => {
  const inject = { method: 'POST' as const, url: '/', headers: { 'content-type': 'text/x-lines' } }

  it.each([true, false])('custom(name) uses the binder (registered by option: %s)', async (viaOption) => {
    const app = await linesApp((request) => bind(request).custom('lines', Schema), viaOption)
    expect((await app.inject({ ...inject, payload: 'name: bolt\nqty: 3' })).json()).toEqual({ name: 'bolt', qty: 3 })
  })

  it('is consulted by body() when the Content-Type matches', async () => {
    const app = await linesApp((request) => bind(request).body(Schema), true)
    expect((await app.inject({ ...inject, payload: 'name: nut\nqty: 1' })).json()).toEqual({ name: 'nut', qty: 1 })
  })

  it('validates what the binder returns', async () => {
    const app = await linesApp((request) => bind(request).custom('lines', Schema), true)
    expect((await app.inject({ ...inject, payload: 'name: nut\nqty: 99' })).json().code).toBe('WEFT_VALIDATION_FAILED')
  })

  it('turns a binder failure into a BindError', async () => {
    const app = await linesApp((request) => bind(request).custom('lines', Schema), true)
    const res = await app.inject({ ...inject, payload: 'garbage' })
    expect(res.json()).toMatchObject({ code: 'WEFT_BIND_ERROR', message: 'cannot bind body: bad line "garbage"' })
  })

  it('is a setup error for an unknown name', async () => {
    const app = await makeApp((request) => bind(request).custom('yaml', Schema))
    expect((await app.inject({ url: '/' })).json().code).toBe('WEFT_UNKNOWN_BINDER')
  })
})
