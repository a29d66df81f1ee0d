import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { answerLength, pipelinedLoad, requestBytes } from './pipelined-load.js'

let app: FastifyInstance | undefined

afterEach(async () => {
  await app?.close()
  app = undefined
})

/** A server counting the requests it answered, and its URL. */
async function server(answer: (count: number) => { status: number; body: string }) {
  let handled = 0
  app = Fastify()
  app.post('/items', async (_request, reply) => {
    handled++
    const { status, body } = answer(handled)
    return reply.code(status).type('application/json').send(body)
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as { port: number }
  return { url: new URL(`http://127.0.0.1:${port}/items`), handled: () => handled }
}

const post = { method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: '{"a":1}' }

describe('pipelinedLoad', () => {
  it('counts every request it sent: the server answered exactly as many', async () => {
    const target = await server(() => ({ status: 201, body: '{"ok":true}' }))
    const bytes = requestBytes(target.url, post)
    const length = await answerLength(target.url, bytes)
    const before = target.handled()
    const result = await pipelinedLoad(target.url, bytes, length, { connections: 4, pipelining: 3, seconds: 0.3 })
    expect(result.requests).toBeGreaterThan(12)
    expect(result.requests).toBe(target.handled() - before)
    expect(result.errors).toBe(0)
    expect(result.non2xx).toBe(0)
    expect(result.p50Ms).toBeGreaterThan(0)
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms)
  })

  it('stops at the first answer that is not a 2xx where one is due, and reports it', async () => {
    const target = await server((count) =>
      count > 50 ? { status: 500, body: '{"no":1}' } : { status: 201, body: '{"ok":1}' },
    )
    const bytes = requestBytes(target.url, post)
    const length = await answerLength(target.url, bytes)
    const result = await pipelinedLoad(target.url, bytes, length, { connections: 2, pipelining: 2, seconds: 5 })
    expect(result.non2xx).toBeGreaterThan(0)
    expect(result.requests).toBeLessThan(target.handled())
  })
})

describe('answerLength', () => {
  it('is the length of the whole answer, head and body', async () => {
    const target = await server(() => ({ status: 201, body: '{"ok":true}' }))
    const length = await answerLength(target.url, requestBytes(target.url, post))
    const response = await fetch(target.url, { method: 'POST', headers: post.headers, body: post.body })
    expect(await response.text()).toBe('{"ok":true}')
    // "HTTP/1.1 201 Created" and each header line end in CRLF, then a blank line, then the body
    const head = [`HTTP/1.1 201 Created`, ...[...response.headers].map(([name, value]) => `${name}: ${value}`)]
    expect(length).toBe(head.join('\r\n').length + 4 + '{"ok":true}'.length)
  })

  it('refuses a server that does not answer 2xx', async () => {
    const target = await server(() => ({ status: 404, body: '{}' }))
    await expect(answerLength(target.url, requestBytes(target.url, post))).rejects.toThrow(
      '2xx answer with a Content-Length',
    )
  })
})
