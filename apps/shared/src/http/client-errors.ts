import { maxHeaderSize, STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify'
import { messages, type SharedErrorCode, sharedCatalogue } from './errors.js'

/** What a client gets for an error of Node's HTTP parser, by the parser's code. */
function classify(parserCode: string, requestTimeoutMs: number): { code: SharedErrorCode; message: string } {
  if (parserCode === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: 'REQUEST_TIMEOUT', message: messages.requestTimeout(Math.ceil(requestTimeoutMs / 1000)) }
  }
  if (parserCode === 'HPE_HEADER_OVERFLOW') {
    return { code: 'HEADERS_TOO_LARGE', message: messages.headersTooLarge(maxHeaderSize) }
  }
  // The client closed its side before the request was complete.
  if (parserCode === 'HPE_INVALID_EOF_STATE') return { code: 'BAD_REQUEST', message: messages.incomplete }
  return { code: 'BAD_REQUEST', message: messages.notHttp }
}

/**
 * Fastify's `clientErrorHandler` option: errors Node's HTTP parser raises before there is a request (a byte that
 * is not allowed in the URL or a header, broken chunked encoding, two `Content-Length`s, over 16 KB of URL and
 * headers, a request still arriving after `requestTimeoutMs`) leave in the error envelope, with
 * `Connection: close`, and the socket is closed. Nothing is written to a socket that can no longer take it
 * (the client reset it). Logged at info by the parser's code only: the error holds the raw bytes of the
 * request, headers and all.
 *
 * @example
 * Fastify({ clientErrorHandler: clientErrorHandler(30_000) })
 */
export function clientErrorHandler(requestTimeoutMs: number): NonNullable<FastifyServerOptions['clientErrorHandler']> {
  return function answer(this: { log: FastifyBaseLogger }, error, socket: Socket) {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const { code, message } = classify(error.code, requestTimeoutMs)
    const status = sharedCatalogue[code].status
    this.log.info({ code, statusCode: status, parserCode: error.code }, message)
    const body = JSON.stringify({ status: 'error', code, message, data: null })
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    )
    socket.destroy()
  }
}
