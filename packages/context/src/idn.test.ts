import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { handle } from './index.js'

async function subdomainsOf(host: string, offset?: number) {
  const app = await makeApp()
  app.get(
    '/',
    handle((c) => c.json(c.subdomains(offset))),
  )
  const res = await app.inject({ url: '/', headers: { host } })
  expect(res.statusCode).toBe(200)
  return res.json()
}

describe('subdomains of IDN hosts', () => {
  it.each([
    ['a punycode label is decoded', 'xn--bcher-kva.example.com', undefined, ['bücher']],
    ['a punycode FQDN is decoded', 'xn--bcher-kva.example.com.', undefined, ['bücher']],
    ['upper-case punycode is decoded', 'XN--BCHER-KVA.Example.com', undefined, ['bücher']],
    ['every label is decoded', 'xn--ls8h.xn--mnchen-3ya.example.com', undefined, ['💩', 'münchen']],
  ])('%s', async (_rule, host, offset, expected) => {
    expect(await subdomainsOf(host, offset)).toEqual(expected)
  })

  it.each([
    ['a label that decodes to a trailing hyphen (Fiber: xn--bcher--)', 'xn--bcher--.example.com', 2, ['xn--bcher--']],
    ['a label with nothing encoded', 'xn--.example.com', 2, ['xn--']],
    ['a label that is not punycode', 'xn--a.example.com', 2, ['xn--a']],
    ['a label that decodes to plain ASCII', 'xn--abc-.example.com', 2, ['xn--abc-']],
    ['a label that decodes with a hyphen at an end', 'xn----tfa.example.com', 2, ['xn----tfa']],
    ['a label beyond 63 characters', `xn--${'a'.repeat(60)}-kva.example.com`, 2, [`xn--${'a'.repeat(60)}-kva`]],
  ])('keeps %s as sent', async (_rule, host, offset, expected) => {
    expect(await subdomainsOf(host, offset)).toEqual(expected)
  })

  it('keeps the whole host as sent when one label is invalid, as Fiber does', async () => {
    expect(await subdomainsOf('xn--bcher-kva.xn--bcher--.example.com')).toEqual(['xn--bcher-kva', 'xn--bcher--'])
    expect(await subdomainsOf('foo_bar.xn--bcher-kva.example.com')).toEqual(['foo_bar', 'xn--bcher-kva'])
  })

  it('keeps a host longer than a DNS name (253 characters) as sent, without decoding it', async () => {
    const host = `xn--bcher-kva.${'a.'.repeat(130)}example.com`
    const labels = await subdomainsOf(host, 0)
    expect(labels[0]).toBe('xn--bcher-kva')
    expect(labels).toHaveLength(133)
  })

  it('leaves hosts without punycode alone', async () => {
    expect(await subdomainsOf('foo_bar.a-.example.com')).toEqual(['foo_bar', 'a-'])
  })
})
