// (d) baseline: `GET /api/users/:id` on bare Fastify with @fastify/jwt verification alone (HS256,
// same secret and required claims as API A), no revocation check; same database, query and envelope.
// It signs its own token for the bench user (the orchestrator loads it with that token).
import { randomUUID } from 'node:crypto'
import fastifyJwt from '@fastify/jwt'
import { users } from '@weft/api-a/src/db/schema.ts'
import { eq } from 'drizzle-orm'
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import { benchSecret, benchUser, openBenchDatabase } from './api-a-env.js'
import { serve } from './serve.js'

const database = await openBenchDatabase()
const { db } = database
const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, benchUser.email))
if (!user) throw new Error('the bench user is missing from the prepared database')

const app = Fastify({ logger: false })
await app.register(fastifyJwt, {
  secret: benchSecret,
  sign: { algorithm: 'HS256' },
  verify: { algorithms: ['HS256'], requiredClaims: ['sub', 'sid', 'jti', 'iat', 'exp'] },
})
const error = (reply: FastifyReply, statusCode: number, code: string, message: string) =>
  reply.code(statusCode).send({ status: 'error', code, message, data: null })

app.get('/api/users/:id', async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
  let claims: { sub: string }
  try {
    claims = await request.jwtVerify<{ sub: string }>()
  } catch {
    return error(reply, 401, 'INVALID_TOKEN', 'token is not valid')
  }
  const id = Number(request.params.id)
  if (!Number.isSafeInteger(id) || id < 1) return error(reply, 400, 'INVALID_ID', 'id must be a positive integer')
  if (String(id) !== claims.sub) return error(reply, 403, 'FORBIDDEN', 'you may only access your own account')
  const [row] = await db.select().from(users).where(eq(users.id, id))
  if (!row) return error(reply, 404, 'NOT_FOUND', `user ${id} not found`)
  return {
    status: 'success',
    message: 'user found',
    data: {
      id: row.id,
      username: row.username,
      email: row.email,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    },
  }
})

const iat = Math.floor(Date.now() / 1000)
const token = app.jwt.sign({ sub: String(user.id), sid: randomUUID(), jti: randomUUID(), iat, exp: iat + 7200 })
await serve(app, { token, userId: user.id }, () => database.close())
