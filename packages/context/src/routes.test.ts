import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { type Ctx, handle } from './index.js'

async function appWithRoutes() {
  const app = await makeApp()
  app.get(
    '/*',
    { config: { name: 'root.wild' } },
    handle((c) => c.sendString('root')),
  )
  app.get(
    '/users/:id',
    { config: { name: 'user.show' } },
    handle((c) => c.sendString(`user ${c.params('id')}`)),
  )
  app.get(
    '/files/*',
    { config: { name: 'files' } },
    handle((c) => c.sendString('files')),
  )
  app.get(
    '/posts/:year/:slug?',
    { config: { name: 'posts' } },
    handle((c) => c.sendString('posts')),
  )
  app.get(
    '/n/:id(^\\d+)',
    { config: { name: 'numeric' } },
    handle((c) => c.sendString('n')),
  )
  await app.register(
    async (child) => {
      child.get(
        '/settings',
        { config: { name: 'admin.settings' } },
        handle((c) => c.sendString('s')),
      )
    },
    { prefix: '/admin' },
  )
  return app
}

async function url(build: (c: Ctx) => unknown, query = '') {
  const app = await appWithRoutes()
  app.get(
    '/probe',
    handle(async (c) => {
      await build(c)
    }),
  )
  return app.inject(`/probe${query}`)
}

describe('getRouteURL', () => {
  it.each([
    ['user.show', { id: 42 }, '/users/42'],
    ['user.show', { id: 'a b/c' }, '/users/a%20b%2Fc'],
    ['user.show', { id: 'x', queries: { tab: 'posts', q: 'a&b' } }, '/users/x?tab=posts&q=a%26b'],
    ['files', { '*': 'docs/read me.txt' }, '/files/docs/read%20me.txt'],
    ['files', { '*1': 'a/b' }, '/files/a/b'],
    ['posts', { year: 2024, slug: 'hello' }, '/posts/2024/hello'],
    ['posts', { year: 2024 }, '/posts/2024/'],
    ['posts', { year: 2024, slug: '' }, '/posts/2024/'],
    ['numeric', { id: 7 }, '/n/7'],
    ['admin.settings', {}, '/admin/settings'],
  ])('%s with %j → %s', async (name, params, expected) => {
    const res = await url((c) => c.sendString(c.getRouteURL(name, params)))
    expect(res.body).toBe(expected)
  })

  it.each([
    ['a wildcard value with a leading slash would give //host', 'root.wild', { '*': '/evil.example/x' }],
    ['a wildcard value of // at the root', 'root.wild', { '*': '//evil.example' }],
    ['.. segments in a wildcard', 'files', { '*': 'a/../../admin' }],
    ['. segments in a wildcard', 'files', { '*': './x' }],
    ['a parameter that is ..', 'user.show', { id: '..' }],
  ])('refuses values that leave the route with a 400 (%s)', async (_rule, name, params) => {
    for (const build of [
      (c: Ctx) => c.sendString(c.getRouteURL(name, params)),
      (c: Ctx) => c.redirectToRoute(name, params),
    ]) {
      const res = await url(build)
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('WEFT_INVALID_ROUTE_PARAM')
    }
  })

  it('fails with WEFT_ROUTE_NOT_FOUND for an unknown name', async () => {
    const res = await url((c) => c.getRouteURL('nope', {}))
    expect(res.statusCode).toBe(500)
    expect(res.json().code).toBe('WEFT_ROUTE_NOT_FOUND')
  })

  it('fails with WEFT_ROUTE_PARAM_MISSING for a missing required parameter', async () => {
    const res = await url((c) => c.getRouteURL('user.show', {}))
    expect(res.json().code).toBe('WEFT_ROUTE_PARAM_MISSING')
  })

  it('answers an empty value for a required parameter (from ?id=) with a 400', async () => {
    for (const build of [
      (c: Ctx) => c.sendString(c.getRouteURL('user.show', { id: c.query('id') })),
      (c: Ctx) => c.redirectToRoute('user.show', { id: c.query('id') }),
    ]) {
      const res = await url(build, '?id=')
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'WEFT_EMPTY_ROUTE_PARAM', message: expect.stringContaining("'id'") })
    }
  })
})

describe('redirect, redirectToRoute, redirectBack', () => {
  it('redirects with 302 by default, or the given status', async () => {
    const res = await url((c) => c.redirect('/there'))
    expect([res.statusCode, res.headers.location, res.body]).toEqual([302, '/there', ''])
    expect((await url((c) => c.redirect('/there', 301))).statusCode).toBe(301)
  })

  it('redirects to a route with its optional parameter absent as Fiber does, keeping the slash', async () => {
    const app = await appWithRoutes()
    app.get(
      '/user/:name?',
      { config: { name: 'user' } },
      handle((c) => c.json(c.params('name'))),
    )
    app.get(
      '/go',
      handle((c) => c.redirectToRoute('user', { queries: { tab: 'a' } })),
    )
    const res = await app.inject('/go')
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/user/?tab=a')
    expect(res.body).toBe('')
    // and the location is served by that route
    const followed = await app.inject(res.headers.location as string)
    expect(followed.statusCode).toBe(200)
  })

  it('redirects to a named route with queries', async () => {
    const res = await url((c) => c.redirectToRoute('user.show', { id: 5, queries: { a: '1' } }, 303))
    expect([res.statusCode, res.headers.location]).toEqual([303, '/users/5?a=1'])
  })

  it('follows a same-origin Referer', async () => {
    const app = await appWithRoutes()
    app.get(
      '/back',
      handle((c) => c.redirectBack('/home')),
    )
    const res = await app.inject({
      url: '/back',
      headers: { host: 'shop.example', referer: 'http://shop.example/cart?x=1' },
    })
    expect(res.headers.location).toBe('http://shop.example/cart?x=1')
  })

  it.each(['https://evil.example/', 'http://shop.example.evil.example/', '//evil.example/', 'not a url', ''])(
    'uses the fallback for the Referer %j',
    async (referer) => {
      const app = await appWithRoutes()
      app.get(
        '/back',
        handle((c) => c.redirectBack('/home', 303)),
      )
      const res = await app.inject({ url: '/back', headers: { host: 'shop.example', referer } })
      expect([res.statusCode, res.headers.location]).toEqual([303, '/home'])
    },
  )
})

describe('restartRouting', () => {
  it('re-dispatches to the route of the new path, keeping response state', async () => {
    const app = await appWithRoutes()
    app.get(
      '/old/:id',
      handle((c) => {
        c.set('X-Restarted', 'yes')
        c.path(`/users/${c.params('id')}`)
        return c.restartRouting()
      }),
    )
    const res = await app.inject('/old/9')
    expect(res.body).toBe('user 9')
    expect(res.headers['x-restarted']).toBe('yes')
  })

  it("follows the app's trailing-slash setting", async () => {
    const app = await makeApp({}, { routerOptions: { ignoreTrailingSlash: true } })
    app.get(
      '/target',
      handle((c) => c.sendString('target')),
    )
    app.get(
      '/go',
      handle((c) => c.path('/target/') && c.restartRouting()),
    )
    expect((await app.inject('/go')).body).toBe('target')
  })

  it('runs plain Fastify handlers too', async () => {
    const app = await makeApp()
    app.get('/plain', async (request) => ({ plain: true, path: request.url }))
    app.get(
      '/go',
      handle((c) => c.path('/plain') && c.restartRouting()),
    )
    expect((await app.inject('/go')).json()).toEqual({ plain: true, path: '/go' })
  })

  it('answers 404 when the new path has no route', async () => {
    const app = await makeApp()
    app.get(
      '/go',
      handle((c) => c.path('/nowhere') && c.restartRouting()),
    )
    const res = await app.inject('/go')
    expect(res.statusCode).toBe(404)
    expect(res.json().code).toBe('WEFT_ROUTE_NO_MATCH')
  })

  it('stops an endless loop with WEFT_RESTART_LOOP', async () => {
    const app = await makeApp({ maxRestarts: 3 })
    let runs = 0
    app.get(
      '/loop',
      handle((c) => {
        runs++
        return c.restartRouting()
      }),
    )
    const res = await app.inject('/loop')
    expect(res.statusCode).toBe(508)
    expect(res.json().code).toBe('WEFT_RESTART_LOOP')
    expect(runs).toBe(4)
  })
})

describe('restartRouting from a plain handler', () => {
  it('sends what the restarted chain buffered', async () => {
    const app = await appWithRoutes()
    app.get('/plain-old/:id', async (request) => {
      request.ctx!.path(`/users/${request.ctx!.params('id')}`)
      return request.ctx!.restartRouting()
    })
    expect((await app.inject('/plain-old/3')).body).toBe('user 3')
  })
})

describe('redirects go where they were checked to go', () => {
  it.each([
    [
      'a backslash after the host becomes the slash browsers read',
      'http://good.example\\@evil.example',
      'http://good.example/@evil.example',
    ],
    ['a backslash in a relative path', '/\\evil.example', '//evil.example'],
    ['backslashes after the query are encoded', '/a?b=\\', '/a?b=%5C'],
    ['non-Latin-1 characters are percent-encoded as UTF-8', '/search?q=☃', '/search?q=%E2%98%83'],
    ['Latin-1 characters are percent-encoded as UTF-8', '/é', '/%C3%A9'],
  ])('location(): %s', async (_rule, location, expected) => {
    const res = await url((c) => c.location(location).sendString(''))
    expect(res.headers.location).toBe(expected)
    // whatever is emitted resolves to the origin the input resolves to in a browser
    expect(new URL(res.headers.location as string, 'http://base.example').origin).toBe(
      new URL(location, 'http://base.example').origin,
    )
  })

  it.each([
    ['redirect', '/search?q=☃', '/search?q=%E2%98%83'],
    ['redirect', 'http://good.example\\@evil.example/x', 'http://good.example/@evil.example/x'],
  ])('%s() encodes %j as %j', async (_op, location, expected) => {
    const res = await url((c) => c.redirect(location))
    expect([res.statusCode, res.headers.location]).toEqual([302, expected])
  })

  it('refuses a location with a tab or lone surrogate with a 400', async () => {
    for (const location of ['/a\tb', '/a\ud800']) {
      const res = await url((c) => c.redirect(location))
      expect(res.statusCode).toBe(400)
      expect(['WEFT_INVALID_HEADER', 'WEFT_INVALID_REDIRECT']).toContain(res.json().code)
    }
  })

  async function back(referer: string) {
    const app = await appWithRoutes()
    app.get(
      '/back',
      handle((c) => c.redirectBack('/home')),
    )
    return app.inject({ url: '/back', headers: { host: 'shop.example', referer } })
  }

  it('redirectBack() accepts a relative same-origin Referer', async () => {
    expect((await back('/cart?x=1')).headers.location).toBe('/cart?x=1')
  })

  it.each(['http://shop.example\\@evil.example/', '/\\evil.example/', 'http://shop.example:80\\\\evil.example'])(
    'redirectBack() never sends the browser elsewhere than the checked origin (%j)',
    async (referer) => {
      const location = (await back(referer)).headers.location as string
      expect(new URL(location, 'http://shop.example').origin).toBe('http://shop.example')
    },
  )
})
