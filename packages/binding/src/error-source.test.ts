import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { BindError, bind } from './index.js'

const Count = Type.Object({
  count: Type.Integer({
    uri: 'id',
    header: 'X-Count',
    cookie: 'n',
    respHeader: 'X-Count',
    json: 'n',
    form: 'n',
    xml: 'n',
  }),
})
const Nested = Type.Object({ posts: Type.Array(Type.Object({ votes: Type.Integer() })) })

type Case = {
  name: string
  run: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>
  inject: Record<string, unknown>
  source: string
  field: string
}

const cases: Case[] = [
  { name: 'uri', run: (r) => bind(r).uri(Count), inject: { url: '/items/x' }, source: 'uri', field: 'id' },
  { name: 'query', run: (r) => bind(r).query(Count), inject: { url: '/?count=x' }, source: 'query', field: 'count' },
  {
    name: 'nested query',
    run: (r) => bind(r).query(Nested),
    inject: { url: '/?posts[0][votes]=x' },
    source: 'query',
    field: 'posts[0].votes',
  },
  {
    name: 'header',
    run: (r) => bind(r).header(Count),
    inject: { url: '/', headers: { 'x-count': 'x' } },
    source: 'header',
    field: 'X-Count',
  },
  {
    name: 'cookie',
    run: (r) => bind(r).cookie(Count),
    inject: { url: '/', headers: { cookie: 'n=x' } },
    source: 'cookie',
    field: 'n',
  },
  {
    name: 'respHeader',
    run: (r, reply) => bind(r, reply.header('X-Count', 'x')).respHeader(Count),
    inject: { url: '/' },
    source: 'respHeader',
    field: 'X-Count',
  },
  {
    name: 'json body',
    run: (r) => bind(r).json(Count),
    inject: { method: 'POST', url: '/', payload: { n: 'x' } },
    source: 'body',
    field: 'n',
  },
  {
    name: 'nested json body',
    run: (r) => bind(r).json(Nested),
    inject: { method: 'POST', url: '/', payload: { posts: [{ votes: 1 }, { votes: 'x' }] } },
    source: 'body',
    field: 'posts[1].votes',
  },
  {
    name: 'form body',
    run: (r) => bind(r).form(Count),
    inject: {
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'n=x',
    },
    source: 'body',
    field: 'n',
  },
  {
    name: 'xml body',
    run: (r) => bind(r).xml(Count),
    inject: { method: 'POST', url: '/', headers: { 'content-type': 'application/xml' }, payload: '<c><n>x</n></c>' },
    source: 'body',
    field: 'n',
  },
]

describe('every BindError names its source and field', () => {
  it.each(cases)('$name', async ({ run, inject, source, field }) => {
    const app = await makeApp(async (request, reply) => {
      try {
        return await run(request, reply)
      } catch (err) {
        if (!(err instanceof BindError)) throw err
        return { source: err.source, field: err.field, status: err.statusCode }
      }
    })
    const res = await app.inject(inject)
    expect(res.json()).toEqual({ source, field, status: 400 })
  })
})
