import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { handle, type ViewEngine } from './index.js'

function waitFor(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const tick = () => (check() ? resolve() : setImmediate(tick))
    tick()
  })
}

describe('locals', () => {
  it('stores request-scoped values shared along the chain', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle(
        async (c) => {
          c.locals('user', { id: 1 })
          await c.next()
        },
        (c) => c.json({ user: c.locals('user'), missing: c.locals('missing') ?? null }),
      ),
    )
    expect((await app.inject('/')).json()).toEqual({ user: { id: 1 }, missing: null })
  })

  it('closes values with close() and Symbol.asyncDispose when the response finishes', async () => {
    const app = await makeApp()
    const closed: string[] = []
    app.get(
      '/',
      handle((c) => {
        c.locals('db', { close: () => void closed.push('close') })
        c.locals('tx', { [Symbol.asyncDispose]: async () => void closed.push('dispose') })
        c.locals('plain', 42)
        c.sendString('ok')
      }),
    )
    const res = await app.inject('/')
    expect(res.body).toBe('ok')
    await waitFor(() => closed.length === 2)
    expect(closed.sort()).toEqual(['close', 'dispose'])
  })

  it('closes values when the handler fails too, and logs a failing close', async () => {
    const app = await makeApp()
    let closed = false
    app.get(
      '/',
      handle((c) => {
        c.locals('bad', {
          close: () => {
            throw new Error('close failed')
          },
        })
        c.locals('good', {
          close: () => {
            closed = true
          },
        })
        throw Object.assign(new Error('boom'), { statusCode: 409 })
      }),
    )
    expect((await app.inject('/')).statusCode).toBe(409)
    await waitFor(() => closed)
    expect(closed).toBe(true)
  })
})

describe('userContext', () => {
  it('is an empty object until set, then the object set', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle((c) => {
        const before = c.userContext()
        const mine = { traceId: 't-1' }
        c.setUserContext(mine)
        c.json({ before, after: c.userContext(), same: c.userContext() === mine })
      }),
    )
    expect((await app.inject('/')).json()).toEqual({ before: {}, after: { traceId: 't-1' }, same: true })
  })
})

describe('render and bind(vars)', () => {
  const views: ViewEngine = {
    render: async (name, vars, layouts) => `${layouts.join('>')}|${name}|${JSON.stringify(vars)}`,
  }

  it('renders with the views engine, merging bind(vars) under the call vars', async () => {
    const app = await makeApp({ views })
    app.get(
      '/',
      handle(async (c) => {
        c.bind({ site: 'weft', title: 'default' }).bind({ user: 'ada' })
        await c.render('home', { title: 'Home' }, 'main', 'base')
      }),
    )
    const res = await app.inject('/')
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.body).toBe('main>base|home|{"site":"weft","title":"Home","user":"ada"}')
  })

  it('fails with WEFT_NO_VIEWS without an engine', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle((c) => c.render('home')),
    )
    const res = await app.inject('/')
    expect(res.statusCode).toBe(500)
    expect(res.json().code).toBe('WEFT_NO_VIEWS')
  })
})
