import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { handle } from './index.js'

// behind a trusted proxy: the rules of Fiber v3's Host() and Scheme()
const app = await makeApp({}, { trustProxy: true })
app.get(
  '/',
  handle((c) => c.json([c.hostname(), c.protocol(), c.baseURL()])),
)

/** Sends raw header lines in this order (light-my-request keeps the order of an object's keys). */
async function read(headers: Record<string, string>): Promise<unknown> {
  return (await app.inject({ url: '/', headers: { host: 'internal', ...headers } })).json()
}

describe('X-Forwarded-Host behind a trusted proxy', () => {
  it.each([
    ['a leading empty entry is skipped', ',example.com', 'example.com'],
    ['blank entries are skipped', ' , ,example.com:8443', 'example.com'],
    ['the first entry wins', 'a.example, b.example', 'a.example'],
  ])('%s', async (_rule, value, hostname) => {
    expect(((await read({ 'x-forwarded-host': value })) as string[])[0]).toBe(hostname)
  })
})

describe('scheme headers behind a trusted proxy', () => {
  it.each([
    [
      'X-Forwarded-Proto is not overridden by an invalid X-Url-Scheme',
      { 'x-forwarded-proto': 'https', 'x-url-scheme': 'javascript' },
      'https',
    ],
    [
      'nor by an invalid X-Forwarded-Protocol',
      { 'x-forwarded-proto': 'https', 'x-forwarded-protocol': 'ftp' },
      'https',
    ],
    ['nor by an empty X-Url-Scheme', { 'x-forwarded-proto': 'https', 'x-url-scheme': ' ' }, 'https'],
    ['nor by X-Forwarded-Ssl: off', { 'x-forwarded-proto': 'https', 'x-forwarded-ssl': 'off' }, 'https'],
    ['a value with more than the scheme is ignored', { 'x-forwarded-proto': 'HTTPS evil' }, 'http'],
    ['case and spaces are ignored', { 'x-forwarded-proto': ' HTTPS , http' }, 'https'],
    [
      'of two valid scheme headers, the last in header order wins',
      { 'x-url-scheme': 'http', 'x-forwarded-proto': 'https' },
      'https',
    ],
    ['the last wins the other way round too', { 'x-forwarded-proto': 'https', 'x-url-scheme': 'http' }, 'http'],
  ])('%s', async (_rule, headers, scheme) => {
    expect(((await read(headers)) as string[])[1]).toBe(scheme)
  })
})
