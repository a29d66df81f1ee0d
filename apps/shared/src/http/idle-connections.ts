import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/**
 * Closes, without an answer, a connection that has sent no byte `idleMs` after it opened: it made no request, so
 * there is nothing to answer, and a client that opens connections and stays silent holds each only this long.
 * Once a byte has arrived, the request timeout bounds the request (408) and the keep-alive timeout the wait
 * between requests, as before. One timer per connection, looked at once. Not a socket timeout
 * (`server.timeout`, Fastify's `connectionTimeout`): that one also fires while a handler runs on a quiet socket.
 *
 * @example
 * closeSilentConnections(app.server, 10_000)
 */
export function closeSilentConnections(server: Server, idleMs: number): void {
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy()
    }, idleMs)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  })
}
