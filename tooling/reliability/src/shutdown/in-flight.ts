import { connect, type Socket } from 'node:net'

/**
 * A request held half-sent on its own connection: headers and the first half of the body are written,
 * the rest waits for `finish()`. While it is held the server has accepted and routed the request but
 * cannot answer it: it is in flight, whatever the server does meanwhile (e.g. receive SIGTERM).
 */
export interface HeldRequest {
  /** Sends the rest of the body and resolves with the final status code (or rejects if the connection dies). */
  finish(): Promise<number>
}

/** The first final (non-1xx) status code in what the server sent, if any. */
export function finalStatus(received: string): number | undefined {
  for (const match of received.matchAll(/(?:^|\r\n)HTTP\/1\.1 (\d{3})/g)) {
    const code = Number(match[1])
    if (code >= 200) return code
  }
  return undefined
}

/**
 * Resolves once the server has parsed the request's head. The request asks `Expect: 100-continue`, and
 * Node answers `100 Continue` in the same step in which it hands the request to Fastify's router, so
 * the interim answer proves the request was routed. Without it, a busy server might still hold the
 * head unread in its socket buffer when the test sends SIGTERM, and then rightly refuse it as new.
 */
function continued(socket: Socket, received: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!/^HTTP\/1\.1 1\d\d [^\r\n]*\r\n\r\n/.test(received())) return
      socket.off('data', check)
      resolve()
    }
    socket.on('data', check)
    socket.once('close', () => reject(new Error('connection closed before the server read the request head')))
  })
}

export async function holdRequest(
  url: string,
  request: { method: string; path: string; headers: Record<string, string>; body: string },
): Promise<HeldRequest> {
  const { hostname, port } = new URL(url)
  const socket: Socket = connect(Number(port), hostname)
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  let received = ''
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1')
  })
  const answered = new Promise<number>((resolve, reject) => {
    socket.once('error', reject)
    socket.once('close', () => {
      const status = finalStatus(received)
      if (status !== undefined) resolve(status)
      else reject(new Error(`connection closed without an answer (got ${JSON.stringify(received.slice(0, 200))})`))
    })
  })
  // Callers see an unanswered request as a rejected `finish()`, not as an unhandled rejection meanwhile.
  answered.catch(() => {})
  const body = Buffer.from(request.body, 'utf8')
  const half = Math.floor(body.length / 2)
  const head = [
    `${request.method} ${request.path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Connection: close',
    'Expect: 100-continue',
    `Content-Length: ${body.length}`,
    ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n')
  const routed = continued(socket, () => received)
  socket.write(head)
  await routed
  socket.write(body.subarray(0, half))
  return {
    finish() {
      socket.write(body.subarray(half))
      return answered
    },
  }
}
