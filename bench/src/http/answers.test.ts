import { describe, expect, it } from 'vitest'
import { type Answer, answerDifference } from './answers.js'

const answer = (headers: Record<string, string>, body = 'hello', status = 200): Answer => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(body.length), ...headers },
  body: Buffer.from(body),
})

describe('answerDifference', () => {
  it('finds none between the same bytes sent at another time on another connection', () => {
    const a = answer({ date: 'Mon, 23 Nov 2026 10:00:00 GMT', connection: 'keep-alive', 'keep-alive': 'timeout=5' })
    const b = answer({ date: 'Mon, 23 Nov 2026 10:00:01 GMT', connection: 'close' })
    expect(answerDifference(a, b)).toBeUndefined()
  })

  it.each([
    ['another status', answer({}, 'hello', 201), 'status 201, expected 200'],
    ['a header the reference lacks', answer({ etag: 'W/"5-x"' }), 'header etag: "W/\\"5-x\\"", expected absent'],
    [
      'a Content-Type spelled differently',
      answer({ 'content-type': 'text/plain; charset=UTF-8' }),
      'header content-type: "text/plain; charset=UTF-8", expected "text/plain; charset=utf-8"',
    ],
    ['a body with other bytes', answer({}, 'hellO'), 'body differs from byte 4: "hellO", expected "hello"'],
  ])('reports %s', (_name, actual, message) => {
    expect(answerDifference(answer({}), actual)).toBe(message)
  })
})
