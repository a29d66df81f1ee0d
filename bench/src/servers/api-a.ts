// (c)/(d) candidate: API A itself (`buildApp`), on the prepared database. Logs the bench user in
// through its login route and reports the access token and user id to the orchestrator.
import { buildApp } from '@weft/api-a/src/app.ts'
import { apiSettings, benchUser, openBenchDatabase } from './api-a-env.js'
import { serve } from './serve.js'

const database = await openBenchDatabase()
const app = await buildApp({ database, settings: apiSettings() })
const login = await app.inject({
  method: 'POST',
  url: '/api/auth/login',
  payload: { email: benchUser.email, password: benchUser.password },
})
if (login.statusCode !== 200) throw new Error(`login answered ${login.statusCode}: ${login.body}`)
const token = (login.json() as { data: { access_token: string } }).data.access_token
const userId = Number(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub)
await serve(app, { token, userId }, () => database.close())
