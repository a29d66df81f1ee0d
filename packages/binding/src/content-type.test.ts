import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { formatOf, mediaTypeOf } from './content-type.js'

const withType = (contentType: string | undefined) =>
  ({ headers: contentType === undefined ? {} : { 'content-type': contentType } }) as unknown as FastifyRequest

describe('mediaTypeOf', () => {
  it('gives each request its own media type, whatever came before', () => {
    const headers = ['application/json', ' Text/XML ; charset=utf-8', 'application/json', undefined, 'APPLICATION/JSON']
    expect(headers.map((header) => mediaTypeOf(withType(header)))).toEqual([
      'application/json',
      'text/xml',
      'application/json',
      '',
      'application/json',
    ])
    // a header built anew with the same text gives the same answer as the one before it
    const again = ['application', 'vnd.api+json; q=1'].join('/')
    expect(mediaTypeOf(withType(again))).toBe('application/vnd.api+json')
    expect(mediaTypeOf(withType(again.toUpperCase()))).toBe('application/vnd.api+json')
    expect(formatOf(mediaTypeOf(withType(again)))).toBe('json')
  })
})
