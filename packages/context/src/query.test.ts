import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { fill, growth, LINEAR_BOUND } from '../test/work.js'
import { handle } from './index.js'

async function run(url: string, read: (c: import('./index.js').Ctx) => unknown): Promise<unknown> {
  const app = await makeApp()
  app.get(
    '/',
    handle((c) => c.json(read(c))),
  )
  return (await app.inject(url)).json()
}

describe('query', () => {
  it('returns the first value, or the default', async () => {
    expect(await run('/?a=1&a=2', (c) => [c.query('a'), c.query('b'), c.query('b', 'd')])).toEqual(['1', '', 'd'])
  })

  it('decodes percent escapes and plus signs', async () => {
    expect(await run('/?q=a%20b+c', (c) => c.query('q'))).toBe('a b c')
  })

  it('treats an empty value as missing', async () => {
    expect(await run('/?a=', (c) => c.query('a', 'def'))).toBe('def')
  })
})

describe('queries', () => {
  it('keeps the last value of a repeated key and keys verbatim, without comma splitting', async () => {
    expect(await run('/?a=1&a=2&b[]=x&c[d]=y&e.f=z&g=1,2', (c) => c.queries())).toEqual({
      a: '2',
      'b[]': 'x',
      'c[d]': 'y',
      'e.f': 'z',
      g: '1,2',
    })
  })

  it('is empty without a query string', async () => {
    expect(await run('/', (c) => c.queries())).toEqual({})
  })
})

describe('typed query getters', () => {
  it.each([
    ['/?n=10', 10],
    ['/?n=-3', -3],
    ['/?n=10abc', 0],
    ['/?n=1.5', 0],
    ['/?n=', 0],
    ['/', 0],
    ['/?n=99999999999999999999', 0],
  ])('queryInt %s → %d', async (url, expected) => {
    expect(await run(url, (c) => c.queryInt('n'))).toBe(expected)
  })

  it('queryInt falls back to the default for absent, empty and invalid values', async () => {
    expect(await run('/?a=&b=x', (c) => [c.queryInt('a', 5), c.queryInt('b', 6), c.queryInt('z', 7)])).toEqual([
      5, 6, 7,
    ])
  })

  it.each([
    ['/?f=1.5', 1.5],
    ['/?f=-2', -2],
    ['/?f=.5', 0.5],
    ['/?f=1e3', 1000],
    ['/?f=abc', 0],
    ['/?f=1.5x', 0],
    ['/?f=Infinity', 0],
    ['/', 0],
  ])('queryFloat %s → %d', async (url, expected) => {
    expect(await run(url, (c) => c.queryFloat('f'))).toBe(expected)
  })

  it('queryFloat falls back to the default', async () => {
    expect(await run('/?f=x', (c) => c.queryFloat('f', 2.5))).toBe(2.5)
  })

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['t', true],
    ['T', true],
    ['false', false],
    ['0', false],
    ['F', false],
  ])('queryBool reads %s as %s', async (value, expected) => {
    expect(await run(`/?b=${value}`, (c) => c.queryBool('b', !expected))).toBe(expected)
  })

  it('queryBool gives the default (else false) for absent, empty or invalid values', async () => {
    expect(
      await run('/?e=&x=yes', (c) => [
        c.queryBool('e', true),
        c.queryBool('x', true),
        c.queryBool('x'),
        c.queryBool('z'),
      ]),
    ).toEqual([true, true, false, false])
  })
})

const typedApp = await makeApp()
typedApp.get(
  '/',
  handle((c) => c.json([c.queryFloat('v', -1), c.queryInt('v', -1), c.queryBool('v')])),
)
const read = (value: string) => typedApp.inject(`/?v=${value}`)

describe('typed query readers: bounded work', () => {
  it.each([
    ['a long digit string that is not a number at its end', (n: number) => `${fill('1', n)}x`],
    ['a long fraction that is not a number at its end', (n: number) => `1.${fill('1', n)}x`],
    ['a long exponent that is not a number at its end', (n: number) => `1e${fill('1', n)}x`],
    ['a long number', (n: number) => fill('1', n)],
  ])('%s: the work grows linearly with the length', async (_name, make) => {
    expect(await growth(make, read)).toBeLessThanOrEqual(LINEAR_BOUND)
  })

  it.each([
    ['1.5', [1.5, -1, false]],
    ['-.5e2', [-50, -1, false]],
    ['%2B3.', [3, -1, false]],
    ['1e400', [-1, -1, false]],
    ['1.2.3', [-1, -1, false]],
    [`${fill('1', 400)}x`, [-1, -1, false]],
  ])('reads %s exactly as before', async (value, expected) => {
    expect((await read(value)).json()).toEqual(expected)
  })
})
