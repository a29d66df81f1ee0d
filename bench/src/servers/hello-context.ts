// (b) The same hello route through @weft/context: `handle()` runs the chain on `request.ctx`, whose
// buffered response is sent when the chain settles.
import { handle, weftContext } from '@weft/context'
import Fastify from 'fastify'
import { serve } from './serve.js'

const app = Fastify({ logger: false })
await app.register(weftContext)
app.get(
  '/',
  handle((c) => c.json({ hello: 'world' })),
)
await serve(app)
