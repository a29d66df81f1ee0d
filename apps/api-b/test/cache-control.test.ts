import { describe, expect, it } from 'vitest'
import { bearer, registeredUser, useTestApi } from './support.js'

describe('Cache-Control: no-store', () => {
  const api = useTestApi('pglite', 'nostore')

  it('is on login answers (token or error), registration and every user read or update', async () => {
    const me = await registeredUser(api.app)
    const answers = [
      await api.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: me.username, password: me.password },
      }),
      await api.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: me.username, password: 'wrong one' },
      }),
      await api.app.inject({
        method: 'POST',
        url: '/api/user',
        payload: { username: `x${me.username}`, email: `x${me.email}`, password: 'long enough 1' },
      }),
      await api.app.inject({ method: 'GET', url: `/api/user/${me.id}`, headers: bearer(me.token) }),
      await api.app.inject({
        method: 'PATCH',
        url: `/api/user/${me.id}`,
        headers: bearer(me.token),
        payload: { email: `y${me.email}` },
      }),
    ]
    for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store')
  })
})
