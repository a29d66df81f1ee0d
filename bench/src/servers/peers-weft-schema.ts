// The query scenario as a Weft user writes it with Fastify's own route schema: `schema.querystring`
// carries Weft's `query` tags, so Fastify validates and binds it through Weft in its validation
// phase. Counted against bare Fastify's `/search` (the same schema, validated by Fastify's Ajv).
import { weftBinding } from '@weft/binding'
import Fastify from 'fastify'
import { Search, taggedByName } from './peers-shared.js'
import { serve } from './serve.js'

const TaggedSearch = taggedByName(Search, 'query')

const app = Fastify({ logger: false })
await app.register(weftBinding)
app.get('/search', { schema: { querystring: TaggedSearch } }, async (request) => request.query)
await serve(app)
