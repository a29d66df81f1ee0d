import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { weftPagination } from './index.js'

describe('weftPagination', () => {
  it('registers under its package name', async () => {
    const app = Fastify()
    await app.register(weftPagination)
    await app.ready()
    expect(app.hasPlugin('@weft/pagination')).toBe(true)
  })
})
