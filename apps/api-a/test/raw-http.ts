import { connect } from 'node:net'

/** What the server wrote on a raw connection before closing it. */
export interface RawAnswer {
  status: number
  /** Header names lower-cased. */
  headers: Record<string, string>
  body: string
}

/** Splits the bytes a server wrote into status, headers and body (one answer, not chunked). */
export function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n')
  const [statusLine = '', ...lines] = text.slice(0, end < 0 ? text.length : end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: end < 0 ? '' : text.slice(end + 4) }
}

/**
 * Writes `request` as it is (bytes no HTTP client would send) on a new connection to `port`, and resolves with
 * what the server wrote once it closed the connection. With `hangUp`, the client closes the connection itself
 * `hangUp` ms after writing, as a client that gives up mid-request.
 */
export function rawRequest(port: number, request: string | Buffer, { hangUp }: { hangUp?: number } = {}) {
  return new Promise<RawAnswer & { text: string }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error('the server kept the connection open for 10 s'))
    }, 10_000)
    socket.on('connect', () => {
      socket.write(request)
      if (hangUp !== undefined) setTimeout(() => socket.destroy(), hangUp)
    })
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString('utf8')
      resolve({ ...parseAnswer(text), text })
    })
  })
}
