/** One HTTP answer as received: status, headers (lower-case names) and the body's bytes. */
export interface Answer {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/**
 * Headers that must differ between two servers answering the same request: the clock (`Date`) and
 * how the connection is kept (`Connection`, `Keep-Alive`), which is the HTTP stack's, not the route's.
 * Everything else, Content-Type and Content-Length included, must be the same bytes.
 */
export const volatileHeaders = new Set(['date', 'connection', 'keep-alive'])

/**
 * What differs between two answers to the same request, or `undefined` when they are the same bytes
 * (status, every header but the volatile ones, body).
 */
export function answerDifference(expected: Answer, actual: Answer): string | undefined {
  if (expected.status !== actual.status) return `status ${actual.status}, expected ${expected.status}`
  const names = new Set([...Object.keys(expected.headers), ...Object.keys(actual.headers)])
  for (const name of [...names].sort()) {
    if (volatileHeaders.has(name)) continue
    const [want, got] = [expected.headers[name], actual.headers[name]]
    if (want !== got) return `header ${name}: ${show(got)}, expected ${show(want)}`
  }
  if (!expected.body.equals(actual.body)) {
    let at = 0
    while (at < expected.body.length && expected.body[at] === actual.body[at]) at++
    const excerpt = (body: Buffer) => JSON.stringify(body.subarray(Math.max(0, at - 20), at + 40).toString())
    return `body differs from byte ${at}: ${excerpt(actual.body)}, expected ${excerpt(expected.body)}`
  }
  return undefined
}

const show = (value: string | undefined) => (value === undefined ? 'absent' : JSON.stringify(value))

/** Sends one request and reads the whole answer. */
export async function fetchAnswer(
  url: string,
  request: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const response = await fetch(url, {
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
  })
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) }
}
