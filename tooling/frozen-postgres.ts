import { createServer, type Socket } from 'node:net'

/** A fake PostgreSQL server: it accepts connections, completes the start-up, then never answers a query. */
export interface FrozenPostgres {
  /** Connection URL (no TLS, any user and password). */
  url: string
  close(): Promise<void>
}

/**
 * Starts a server that behaves like a frozen database: the TCP connect and the start-up handshake succeed
 * (so the client's connect timeout never fires), and every query after that waits forever. Only what a
 * server-side timeout or the app's own request timeout can bound.
 */
export async function startFrozenPostgres(): Promise<FrozenPostgres> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    // The first message is the StartupMessage; whatever it says, answer AuthenticationOk + ReadyForQuery.
    socket.once('data', () => socket.write(startupAccepted))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = address && typeof address === 'object' ? address.port : 0
  return {
    url: `postgres://postgres@127.0.0.1:${port}/frozen`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** AuthenticationOk ('R', length 8, code 0) then ReadyForQuery ('Z', length 5, idle). */
const startupAccepted = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49])
