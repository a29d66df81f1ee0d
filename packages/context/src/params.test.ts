import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { handle } from './index.js'

describe('route params', () => {
  it('reads a param, with a default when missing', async () => {
    const app = await makeApp()
    app.get(
      '/users/:id/:tab?',
      handle((c) => ({ id: c.params('id'), tab: c.params('tab', 'home') })),
    )
    expect((await app.inject('/users/42')).json()).toEqual({ id: '42', tab: 'home' })
    expect((await app.inject('/users/42/posts')).json()).toEqual({ id: '42', tab: 'posts' })
  })

  it("addresses the wildcard as '*' and '*1' and lists it in allParams()", async () => {
    const app = await makeApp()
    app.get(
      '/files/:owner/*',
      handle((c) => ({ star: c.params('*'), one: c.params('*1'), all: c.allParams() })),
    )
    expect((await app.inject('/files/ada/a/b.txt')).json()).toEqual({
      star: 'a/b.txt',
      one: 'a/b.txt',
      all: { owner: 'ada', '*': 'a/b.txt', '*1': 'a/b.txt' },
    })
  })

  it('returns an empty string for an unknown param', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle((c) => c.sendString(`[${c.params('nope')}]`)),
    )
    expect((await app.inject('/')).body).toBe('[]')
  })

  describe('paramsInt', () => {
    it.each([
      ['42', 42],
      ['-7', -7],
      ['+3', 3],
      ['007', 7],
    ])('reads %s as %d', async (value, expected) => {
      const app = await makeApp()
      app.get(
        '/n/:n',
        handle((c) => ({ n: c.paramsInt('n') })),
      )
      expect((await app.inject(`/n/${value}`)).json()).toEqual({ n: expected })
    })

    it('gives 0 when the param is missing', async () => {
      const app = await makeApp()
      app.get(
        '/n/:n?',
        handle((c) => ({ n: c.paramsInt('n') })),
      )
      expect((await app.inject('/n/')).json()).toEqual({ n: 0 })
    })

    it.each(['abc', '10abc', '1.5', '99999999999999999999'])('answers 400 WEFT_INVALID_PARAM for %s', async (value) => {
      const app = await makeApp()
      app.get(
        '/n/:n',
        handle((c) => ({ n: c.paramsInt('n') })),
      )
      const res = await app.inject(`/n/${value}`)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'WEFT_INVALID_PARAM' })
      expect(res.json().message).toContain("'n'")
    })
  })
})
