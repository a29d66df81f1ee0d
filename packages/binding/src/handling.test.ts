import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { BindError, BindSource, bind, type StructValidator, ValidationError } from './index.js'

const Paged = Type.Object({ page: Type.Integer({ minimum: 1 }) })

describe('withAutoHandling()', () => {
  it('turns a BindError into a plain 400 that hides it', async () => {
    const app = await makeApp((request) => bind(request).withAutoHandling().query(Paged))
    const res = await app.inject({ url: '/?page=x' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_BAD_REQUEST', message: 'Bad Request' })
  })

  it('keeps validation failures as ValidationError', async () => {
    const app = await makeApp((request) => bind(request).withAutoHandling().query(Paged))
    expect((await app.inject({ url: '/?page=0' })).json().code).toBe('WEFT_VALIDATION_FAILED')
  })

  it('is undone by withoutAutoHandling()', async () => {
    const app = await makeApp((request) => bind(request).withAutoHandling().withoutAutoHandling().query(Paged))
    expect((await app.inject({ url: '/?page=x' })).json().code).toBe('WEFT_BIND_ERROR')
  })
})

describe('errors in manual mode', () => {
  it('reject with BindError instances carrying source, field and cause', async () => {
    let caught: unknown
    const app = await makeApp(async (request) => {
      try {
        return await bind(request).query(Paged)
      } catch (err) {
        caught = err
        return { caught: true }
      }
    })
    await app.inject({ url: '/?page=x' })
    expect(caught).toBeInstanceOf(BindError)
    expect(caught).toMatchObject({ source: BindSource.Query, field: 'page', statusCode: 400 })
    expect((caught as BindError).cause.message).toBe('"x" is not an integer')
  })

  it('reject constraint failures with ValidationError in Fastify validation shape', async () => {
    let caught: unknown
    const app = await makeApp(async (request) => {
      try {
        return await bind(request).query(Paged)
      } catch (err) {
        caught = err
        return {}
      }
    })
    await app.inject({ url: '/?page=0' })
    expect(caught).toBeInstanceOf(ValidationError)
    expect(caught).not.toBeInstanceOf(BindError)
    expect(caught).toMatchObject({
      validationContext: 'query',
      validation: [{ instancePath: '/page', keyword: 'minimum', message: 'must be at least 1', params: { limit: 1 } }],
    })
  })
})

describe('skipValidation()', () => {
  it('returns the converted value without checking constraints', async () => {
    const app = await makeApp((request) => bind(request).skipValidation(true).query(Paged))
    expect((await app.inject({ url: '/?page=0' })).json()).toEqual({ page: 0 })
  })

  it('still rejects conversion failures', async () => {
    const app = await makeApp((request) => bind(request).skipValidation(true).query(Paged))
    expect((await app.inject({ url: '/?page=x' })).json().code).toBe('WEFT_BIND_ERROR')
  })

  it('is turned off again with skipValidation(false)', async () => {
    const app = await makeApp((request) => bind(request).skipValidation(true).skipValidation(false).query(Paged))
    expect((await app.inject({ url: '/?page=0' })).json().code).toBe('WEFT_VALIDATION_FAILED')
  })
})

describe('structValidator option', () => {
  const evenPages: StructValidator = {
    validate(out) {
      if ((out as { page: number }).page % 2 === 1) throw new Error('page must be even')
    },
  }

  it('replaces the default validator', async () => {
    const app = await makeApp((request) => bind(request).query(Paged), { structValidator: evenPages })
    expect((await app.inject({ url: '/?page=0' })).json()).toEqual({ page: 0 })
    const res = await app.inject({ url: '/?page=3' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_VALIDATION_FAILED', message: 'query page must be even' })
  })

  it('runs only for object schemas', async () => {
    const app = await makeApp((request) => bind(request).json(Type.Array(Type.Integer())), {
      structValidator: { validate: () => Promise.reject(new Error('never')) },
    })
    const res = await app.inject({ method: 'POST', url: '/', payload: [1, 2] })
    expect(res.json()).toEqual([1, 2])
  })
})

describe('schemas that cannot be bound', () => {
  it('reports a non-object schema for a map source as a setup error', async () => {
    const app = await makeApp((request) => bind(request).query(Type.Array(Type.String())))
    const res = await app.inject({ url: '/?a=1' })
    expect(res.statusCode).toBe(500)
    expect(res.json().code).toBe('WEFT_SCHEMA_NOT_OBJECT')
  })
})
