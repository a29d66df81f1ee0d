// Checks of the running compose stack from outside, through the published 127.0.0.1 ports: what a
// user of the deployed APIs sees. Run by run.sh as `node checks.mjs <check>`; exits 1 on a failure.
// State shared between checks (the user and products made by `flow-a`) lives in $WEFT_ENGINE_STATE.
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'

const apiA = process.env.API_A ?? 'http://127.0.0.1:3800'
const apiB = process.env.API_B ?? 'http://127.0.0.1:3801'
const statePath = process.env.WEFT_ENGINE_STATE ?? '/tmp/weft-engine-state.json'
const json = { 'content-type': 'application/json' }

class CheckFailed extends Error {}
function expect(condition, message) {
  if (!condition) throw new CheckFailed(message)
}

async function call(base, path, { method = 'GET', body, token } = {}) {
  const headers = { ...(body ? json : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) }
  const response = await fetch(base + path, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(15_000),
  })
  const text = await response.text()
  let parsed
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = text
  }
  return { status: response.status, body: parsed }
}

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`

const checks = {
  async health() {
    for (const base of [apiA, apiB]) {
      const { status } = await call(base, '/api/health')
      expect(status === 200, `${base}/api/health answered ${status}`)
    }
  },

  async 'flow-a'() {
    const user = {
      username: `engine_${unique}`,
      email: `engine_${unique}@example.com`,
      password: 'correct horse battery',
    }
    const registered = await call(apiA, '/api/auth/register', { method: 'POST', body: user })
    expect(registered.status === 201, `register: ${registered.status} ${JSON.stringify(registered.body)}`)
    const login = await call(apiA, '/api/auth/login', {
      method: 'POST',
      body: { email: user.email, password: user.password },
    })
    expect(login.status === 200, `login: ${login.status}`)
    const token = login.body.data.access_token
    const id = registered.body.data.id
    const me = await call(apiA, `/api/users/${id}`, { token })
    expect(me.status === 200 && me.body.data.email === user.email, `authorised call: ${me.status}`)
    const anonymous = await call(apiA, `/api/users/${id}`)
    expect(anonymous.status === 401, `anonymous call: ${anonymous.status}`)
    const created = await call(apiA, '/api/products', {
      method: 'POST',
      token,
      body: { title: `engine product ${unique}`, amount: 42 },
    })
    expect(created.status === 201, `product create: ${created.status} ${JSON.stringify(created.body)}`)
    const listed = await call(apiA, '/api/products?limit=100&sort=-id')
    expect(listed.status === 200, `product list: ${listed.status}`)
    expect(
      listed.body.data.some((p) => p.id === created.body.data.id && p.owner_id === id),
      'the new product is not in the list',
    )
    writeFileSync(statePath, JSON.stringify({ user, token, productIds: [created.body.data.id] }))
  },

  async 'flow-b'() {
    const user = {
      username: `engine_${unique}`,
      email: `engine_${unique}@example.com`,
      password: 'correct horse battery',
    }
    const registered = await call(apiB, '/api/user', { method: 'POST', body: user })
    expect(registered.status === 201, `register: ${registered.status} ${JSON.stringify(registered.body)}`)
    const login = await call(apiB, '/api/auth/login', {
      method: 'POST',
      body: { username: user.username, password: user.password },
    })
    expect(login.status === 200, `login: ${login.status}`)
    const id = registered.body.data.id
    const me = await call(apiB, `/api/user/${id}`, { token: login.body.data.access_token })
    expect(me.status === 200 && me.body.data.email === user.email, `authorised call: ${me.status}`)
    const anonymous = await call(apiB, `/api/user/${id}`)
    expect(anonymous.status === 401, `anonymous call: ${anonymous.status}`)
  },

  // Light write traffic (one create every 100 ms) while db-a is stopped and started again. The outage is
  // made, not hoped for: a quick `compose restart` can fall between two writes and show nothing. Writes
  // while the database is down get 503 (never a 500, never a hang), writes succeed again once it is back,
  // and every create that was answered 201 is still there.
  async 'restart-db-a'() {
    const state = JSON.parse(readFileSync(statePath, 'utf8'))
    const statuses = new Map()
    const acknowledged = []
    let n = 0
    const compose = (args) =>
      new Promise((resolve, reject) => {
        const child = spawn('sh', ['-c', `${process.env.WEFT_COMPOSE} ${args}`], { stdio: 'ignore' })
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`compose ${args}: ${code}`))))
      })
    const write = async () => {
      n += 1
      let status
      try {
        const reply = await call(apiA, '/api/products', {
          method: 'POST',
          token: state.token,
          body: { title: `traffic ${unique} ${n}`, amount: n },
        })
        status = reply.status
        if (status === 201) acknowledged.push(reply.body.data.id)
      } catch (error) {
        status = `error:${error.name}`
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      await new Promise((r) => setTimeout(r, 100))
      return status
    }

    for (let i = 0; i < 5; i++) await write()
    await compose('stop db-a')
    const whileDown = []
    for (let i = 0; i < 5; i++) whileDown.push(await write())
    let starting = true
    const start = compose('start db-a').finally(() => {
      starting = false
    })
    const deadline = Date.now() + 90_000
    let okAfterRestart = 0
    while ((starting || okAfterRestart < 10) && Date.now() < deadline) {
      const during = starting
      const status = await write()
      if (!during && status === 201) okAfterRestart += 1
    }
    await start
    console.log(`      ${n} writes: ${JSON.stringify(Object.fromEntries(statuses))}; while down: ${whileDown}`)
    expect(
      whileDown.every((status) => status === 503),
      `writes while the database was down: ${whileDown}`,
    )
    for (const status of statuses.keys()) {
      expect(status === 201 || status === 503, `unexpected answer during the restart: ${status}`)
    }
    expect(okAfterRestart >= 10, 'writes did not recover after the restart')
    for (const id of acknowledged) {
      const { status } = await call(apiA, `/api/products/${id}`)
      expect(status === 200, `acknowledged product ${id} is lost (${status})`)
    }
    state.productIds.push(...acknowledged)
    writeFileSync(statePath, JSON.stringify(state))
  },

  async persisted() {
    const state = JSON.parse(readFileSync(statePath, 'utf8'))
    const login = await call(apiA, '/api/auth/login', {
      method: 'POST',
      body: { email: state.user.email, password: state.user.password },
    })
    expect(login.status === 200, `login after down/up: ${login.status}`)
    for (const id of state.productIds) {
      const { status } = await call(apiA, `/api/products/${id}`)
      expect(status === 200, `product ${id} after down/up: ${status}`)
    }
    console.log(`      user and ${state.productIds.length} products kept`)
  },
}

const name = process.argv[2]
const check = checks[name]
if (!check) {
  console.error(`unknown check ${name}; one of ${Object.keys(checks).join(', ')}`)
  process.exit(2)
}
try {
  await check()
} catch (error) {
  console.error(`      ${error instanceof CheckFailed ? error.message : error.stack}`)
  process.exit(1)
}
