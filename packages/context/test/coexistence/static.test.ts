import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import { describe, expect, it } from 'vitest'
import { handle } from '../../src/index.js'
import { tempDir } from '../temp-dir.js'
import { appWith, orders } from './apps.js'

const dir = tempDir('weft-static-')
writeFileSync(join(dir, 'hello.txt'), 'hello file')

describe.each(orders)('@fastify/static (%s)', (order) => {
  async function app() {
    const app = await appWith(order, fastifyStatic, { root: dir, prefix: '/public/' }, { root: dir })
    app.get(
      '/weft',
      handle((c) => c.sendFile('hello.txt')),
    )
    app.get('/plugin', (_request, reply) => reply.sendFile('hello.txt'))
    return app
  }

  it.each(['/public/hello.txt', '/plugin', '/weft'])('%s sends the file with its type', async (url) => {
    const res = await (await app()).inject({ url })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.body).toBe('hello file')
  })

  it('answers a missing file with 404', async () => {
    const res = await (await app()).inject({ url: '/public/missing.txt' })
    expect(res.statusCode).toBe(404)
  })
})
