import type { AddressInfo, Socket } from 'node:net'
import { clientErrorHandler } from '@weft/api-shared/http/client-errors'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { rawRequest } from './raw-http.js'
import { useTestApi } from './support.js'

const notHttp = 'the request is not valid HTTP: check its URL, its headers and how its body is framed'

describe('requests Node’s HTTP parser refuses', () => {
  const api = useTestApi('pglite', 'client_errors', { requestTimeoutMs: 1000 })
  let port: number
  beforeAll(async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' })
    port = (api.app.server.address() as AddressInfo).port
  })

  it.each([
    ['a raw 0xff byte in the path', Buffer.from('GET /api/\xff HTTP/1.1\r\nHost: localhost\r\n\r\n', 'latin1')],
    ['a NUL in a header', 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Note: a\0b\r\n\r\n'],
    [
      'malformed chunked encoding',
      'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    ],
    [
      'two Content-Lengths',
      'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    ],
  ])('answers %s with 400 BAD_REQUEST in the error envelope', async (_case, request) => {
    const res = await rawRequest(port, request)
    expect(res.status).toBe(400)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)))
    expect(res.headers.connection).toBe('close')
    expect(JSON.parse(res.body)).toEqual({ status: 'error', code: 'BAD_REQUEST', message: notHttp, data: null })
  })

  it.each([
    ['a 20 KB header', `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['a 100 KB URL', `GET /api/${'a'.repeat(100_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`],
  ])('answers %s with 431 HEADERS_TOO_LARGE in the error envelope', async (_case, request) => {
    const res = await rawRequest(port, request)
    expect(res.status).toBe(431)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)))
    expect(res.headers.connection).toBe('close')
    expect(JSON.parse(res.body)).toEqual({
      status: 'error',
      code: 'HEADERS_TOO_LARGE',
      message: 'the URL and headers are too large: send at most 16384 bytes of them',
      data: null,
    })
  })

  it('answers a body that stalls with 408 REQUEST_TIMEOUT in the error envelope', async () => {
    const res = await rawRequest(
      port,
      'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    )
    expect(res.status).toBe(408)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)))
    expect(res.headers.connection).toBe('close')
    expect(JSON.parse(res.body)).toEqual({
      status: 'error',
      code: 'REQUEST_TIMEOUT',
      message: 'the request did not arrive in time: send all of it within 1 s',
      data: null,
    })
  })

  it('writes nothing on a connection the client has already closed', () => {
    const socket = { writable: false, write: vi.fn(), destroy: vi.fn() }
    const handler = clientErrorHandler(1000)
    const error = Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD', bytesParsed: 0, rawPacket: {} })
    handler.call(api.app, error as never, socket as unknown as Socket)
    expect(socket.write).not.toHaveBeenCalled()
    expect(socket.destroy).toHaveBeenCalled()
  })
})
