import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SettingsError, settingsFromEnv } from '../src/config/settings.js'
import { bearer, outcome, signUp, startApp, type TestApp, testSettings } from './support.js'

const OLD = testSettings.secret
const NEW = 'N7q-rotated-Kp2Lm9Xw4Zt8Vb1Hc6Jf3Rd0Sg5Ya'
const UNRELATED = 'U4v-unrelated-Qe8Tn2Wm6Pz1Lk9Xc3Jh7Bd0Fr5Gs'

describe('SECRET_PREVIOUS (rotating the signing key)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp('pglite', 'key_rotation')
  })
  afterAll(async () => {
    await t?.close()
  })

  const createProduct = (app: TestApp['app'], token: string) =>
    app.inject({
      method: 'POST',
      url: '/api/products',
      headers: bearer(token),
      payload: { title: 'rotated', amount: 1 },
    })

  it('accepts an access token signed with the previous key, and signs new ones with the current key', async () => {
    const account = await signUp(t.app, 'rotation')
    const rotated = await t.rebuild({ secret: NEW, previousSecret: OLD })
    expect((await createProduct(rotated, account.access)).statusCode).toBe(201)

    const login = await rotated.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
    })
    const fresh = login.json().data.access_token as string
    const newOnly = await t.rebuild({ secret: NEW })
    expect((await createProduct(newOnly, fresh)).statusCode).toBe(201)
    expect(outcome(await createProduct(t.app, fresh))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
  })

  it('refuses a token of the old key once SECRET_PREVIOUS is removed, and a token of any other key', async () => {
    const account = await signUp(t.app, 'rotation')
    const newOnly = await t.rebuild({ secret: NEW })
    expect(outcome(await createProduct(newOnly, account.access))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
    const other = await t.rebuild({ secret: UNRELATED, previousSecret: NEW })
    expect(outcome(await createProduct(other, account.access))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
  })

  it('accepts cursors made with the previous key and still refuses tampered ones', async () => {
    const account = await signUp(t.app, 'rotation')
    for (let n = 0; n < 3; n++) await createProduct(t.app, account.access)
    const first = await t.app.inject({ method: 'GET', url: '/api/products?limit=1' })
    const cursor = first.json().meta.pagination.next_cursor as string
    const rotated = await t.rebuild({ secret: NEW, previousSecret: OLD })
    const next = await rotated.inject({ method: 'GET', url: `/api/products?limit=1&cursor=${cursor}` })
    expect(next.statusCode).toBe(200)
    expect(next.json().data[0].id).toBeGreaterThan(first.json().data[0].id)

    const newOnly = await t.rebuild({ secret: NEW })
    const refused = await newOnly.inject({ method: 'GET', url: `/api/products?limit=1&cursor=${cursor}` })
    expect(refused.statusCode).toBe(400)
  })

  it('is read from the environment, must be as strong as SECRET and differ from it', () => {
    expect(settingsFromEnv({ SECRET: NEW, SECRET_PREVIOUS: OLD }).previousSecret).toBe(OLD)
    expect(settingsFromEnv({ SECRET: NEW }).previousSecret).toBeUndefined()
    expect(() => settingsFromEnv({ SECRET: NEW, SECRET_PREVIOUS: 'short' })).toThrow(SettingsError)
    expect(() => settingsFromEnv({ SECRET: NEW, SECRET_PREVIOUS: 'short' })).toThrow(/^SECRET_PREVIOUS must be set/)
    expect(() => settingsFromEnv({ SECRET: NEW, SECRET_PREVIOUS: NEW })).toThrow(/must differ from SECRET/)
  })
})
