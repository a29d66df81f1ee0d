import fastifyFormbody from '@fastify/formbody'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { handle } from '../../src/index.js'
import { appWith, orders } from './apps.js'

const form = { 'content-type': 'application/x-www-form-urlencoded' }

describe.each(orders)('@fastify/formbody (%s)', (order) => {
  async function app() {
    const app = await appWith(order, fastifyFormbody)
    app.post(
      '/bind',
      handle(async (c) => c.json(await c.bind().form(Type.Object({ name: Type.String(), age: Type.Integer() })))),
    )
    app.post('/plain', async (request) => request.body)
    app.post(
      '/text',
      handle(async (c) => c.sendString(`${await c.formValue('name')} ${c.body().toString()}`)),
    )
    return app
  }

  it('boots, and its parsed form binds (converted by the schema)', async () => {
    const res = await (await app()).inject({ method: 'POST', url: '/bind', headers: form, payload: 'name=Ada&age=36' })
    expect([res.statusCode, res.json()]).toEqual([200, { name: 'Ada', age: 36 }])
  })

  it('is the parser plain handlers get their request.body from', async () => {
    const res = await (await app()).inject({ method: 'POST', url: '/plain', headers: form, payload: 'name=Ada' })
    expect([res.statusCode, res.json()]).toEqual([200, { name: 'Ada' }])
  })

  it('leaves c.formValue() and c.body() working', async () => {
    const res = await (await app()).inject({ method: 'POST', url: '/text', headers: form, payload: 'name=Ada' })
    expect([res.statusCode, res.body]).toEqual([200, 'Ada name=Ada'])
  })
})
