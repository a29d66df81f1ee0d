import { randomBytes } from 'node:crypto'
import { http, httpUser } from '../apps/http.js'
import type { ApiName } from '../process/server.js'
import type { LoadRequest } from './runner.js'

const json = { 'content-type': 'application/json' }

/** Prepares an API for load (users, products) and returns the request mix each connection cycles through. */
export async function loadMix(api: ApiName, base: string): Promise<{ requests: LoadRequest[]; description: string }> {
  const tag = randomBytes(3).toString('hex')
  const users: Awaited<ReturnType<typeof httpUser>>[] = []
  for (let i = 0; i < 10; i++) users.push(await httpUser(api, base, `load_${tag}_${i}`))
  let n = 0
  const next = () => n++
  const pick = <T>(items: T[]): T => items[next() % items.length] as T

  if (api === 'api-a') {
    const owner = users[0]
    if (!owner) throw new Error('no users')
    const ids: number[] = []
    for (let i = 0; i < 50; i++) {
      const made = await http(base, 'POST', '/api/products', {
        token: owner.token,
        body: { title: `seed ${i}`, amount: i },
      })
      ids.push((made.body.data as { id: number }).id)
    }
    const auth = { ...json, authorization: `Bearer ${owner.token}` }
    const readProduct: LoadRequest = {
      method: 'GET',
      path: '/api/products/1',
      setupRequest: (r) => ({ ...r, path: `/api/products/${pick(ids)}` }),
    }
    return {
      description: 'API A: 2 list : 2 read : 1 create : 1 login',
      requests: [
        { method: 'GET', path: '/api/products?limit=20&sort=-amount' },
        readProduct,
        {
          method: 'POST',
          path: '/api/products',
          headers: auth,
          setupRequest: (r) => ({ ...r, body: JSON.stringify({ title: `load ${next()}`, amount: 1 }) }),
        },
        { method: 'GET', path: '/api/products?limit=10&page=3' },
        readProduct,
        {
          method: 'POST',
          path: '/api/auth/login',
          headers: json,
          setupRequest: (r) => {
            const user = pick(users)
            return { ...r, body: JSON.stringify({ email: user.email, password: user.password }) }
          },
        },
      ],
    }
  }
  const readOwnAccount: LoadRequest = {
    method: 'GET',
    path: '/api/user/1',
    setupRequest: (r) => {
      const user = pick(users)
      return { ...r, path: `/api/user/${user.id}`, headers: { authorization: `Bearer ${user.token}` } }
    },
  }
  return {
    description: 'API B: 3 read : 1 create : 1 login',
    requests: [
      readOwnAccount,
      {
        method: 'POST',
        path: '/api/user',
        headers: json,
        setupRequest: (r) => {
          const name = `c${tag}_${next()}`
          return {
            ...r,
            body: JSON.stringify({ username: name, email: `${name}@example.test`, password: 'load-password-1' }),
          }
        },
      },
      readOwnAccount,
      {
        method: 'POST',
        path: '/api/auth/login',
        headers: json,
        setupRequest: (r) => {
          const user = pick(users)
          return { ...r, body: JSON.stringify({ username: user.username, password: user.password }) }
        },
      },
      {
        method: 'GET',
        path: '/api/user/1/',
        setupRequest: (r) => {
          const user = pick(users)
          return { ...r, path: `/api/user/${user.id}/`, headers: { authorization: `Bearer ${user.token}` } }
        },
      },
    ],
  }
}
