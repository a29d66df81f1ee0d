import { connect, type Socket } from 'node:net'

/**
 * A request held half-sent on its own connection: headers and the first half of the body are written,
 * the rest waits for `finish()`. While it is held the server has accepted and routed the request but
 * cannot answer it: it is in flight, whatever the server does meanwhile (e.g. receive SIGTERM).
 */
export interface HeldRequest {
  /** Sends the rest of the body and resolves with the status line's code (or rejects if the connection dies). */
  finish(): Promise<number>
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
  const answered = new Promise<number>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1')
    })
    socket.once('error', reject)
    socket.once('close', () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received)
      if (match?.[1]) resolve(Number(match[1]))
      else reject(new Error(`connection closed without an answer (got ${JSON.stringify(received.slice(0, 200))})`))
    })
  })
  const body = Buffer.from(request.body, 'utf8')
  const half = Math.floor(body.length / 2)
  const head = [
    `${request.method} ${request.path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Connection: close',
    `Content-Length: ${body.length}`,
    ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n')
  socket.write(head)
  socket.write(body.subarray(0, half))
  return {
    finish() {
      socket.write(body.subarray(half))
      return answered
    },
  }
}
