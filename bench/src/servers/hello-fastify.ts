// (a) The ceiling: a bare Fastify hello route.
import Fastify from 'fastify'
import { serve } from './serve.js'

const app = Fastify({ logger: false })
app.get('/', async () => ({ hello: 'world' }))
await serve(app)
