import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { describe, expectTypeOf, it } from 'vitest'
import {
  type BindError,
  type Binder,
  type BindingSourceList,
  bind,
  type CustomBinder,
  FileField,
  type FileHeader,
  type MultipartForm,
  multipartForm,
  type StructValidator,
  type ValidationError,
  type ValidationIssue,
  type WeftBindingOptions,
} from './index.js'

declare const request: FastifyRequest
declare const reply: FastifyReply

const Search = Type.Object({
  id: Type.Integer({ uri: 'id' }),
  colors: Type.Array(Type.String(), { query: 'colors' }),
  role: Type.Optional(Type.String({ header: 'X-Role' })),
  prefs: Type.Object({ theme: Type.Union([Type.Literal('dark'), Type.Literal('light')]) }),
})
type SearchOut = { id: number; colors: string[]; role?: string; prefs: { theme: 'dark' | 'light' } }

describe('Binder types', () => {
  it('returns the same binder from its chainable settings', () => {
    expectTypeOf(
      bind(request, reply).withAutoHandling().skipValidation(true).withoutAutoHandling(),
    ).toEqualTypeOf<Binder>()
  })

  it.each([
    'all',
    'body',
    'cbor',
    'form',
    'json',
    'msgPack',
    'xml',
    'cookie',
    'header',
    'query',
    'respHeader',
    'uri',
  ] as const)('infers Static<schema> for %s', (op) => {
    expectTypeOf(bind(request)[op](Search)).resolves.toEqualTypeOf<SearchOut>()
  })

  it('infers Static<schema> for custom', () => {
    expectTypeOf(bind(request).custom('yaml', Search)).resolves.toEqualTypeOf<SearchOut>()
  })

  it('types file fields as FileHeader', () => {
    const Upload = Type.Object({ avatar: FileField(), docs: Type.Array(FileField()) })
    expectTypeOf(bind(request).form(Upload)).resolves.toEqualTypeOf<{ avatar: FileHeader; docs: FileHeader[] }>()
  })

  it('types the multipart form', () => {
    expectTypeOf(multipartForm(request)).resolves.toEqualTypeOf<MultipartForm>()
    expectTypeOf<MultipartForm['file']>().toEqualTypeOf<Record<string, FileHeader[]>>()
  })
})

describe('error and option types', () => {
  it('types BindError fields', () => {
    expectTypeOf<BindError['source']>().toEqualTypeOf<'uri' | 'query' | 'header' | 'cookie' | 'body' | 'respHeader'>()
    expectTypeOf<BindError['field']>().toEqualTypeOf<string>()
    expectTypeOf<BindError['cause']>().toEqualTypeOf<Error>()
  })

  it('types ValidationError in Fastify validation shape', () => {
    expectTypeOf<ValidationError['validation'][number]>().toEqualTypeOf<ValidationIssue>()
    expectTypeOf<ValidationIssue['instancePath']>().toEqualTypeOf<string>()
  })

  it('accepts the plugin options of the contract', () => {
    expectTypeOf<WeftBindingOptions>().toMatchTypeOf<{
      enableSplittingOnParsers?: boolean
      structValidator?: StructValidator
      customBinders?: CustomBinder[]
    }>()
  })
})

describe('bind() inputs', () => {
  it('accepts requests and replies of typed routes', () => {
    const app = Fastify()
    app.get<{ Querystring: { a: string }; Params: { id: string } }>('/:id', async (typed, typedReply) => {
      expectTypeOf(bind(typed, typedReply)).toEqualTypeOf<Binder>()
    })
  })
})

describe('bindingSource', () => {
  it('takes comma-separated source names, each once', () => {
    Type.Object({ token: Type.String({ header: 'X-Token', bindingSource: 'header,query' }) })
    Type.Object({ id: Type.String({ bindingSource: 'uri,body,query,header,cookie' }) })
    expectTypeOf<'cookie,uri'>().toExtend<BindingSourceList>()
    // @ts-expect-error typos of source names do not compile
    Type.Object({ token: Type.String({ bindingSource: 'headers,qury' }) })
    // @ts-expect-error form is not a source of all()
    Type.Object({ token: Type.String({ bindingSource: 'query,form' }) })
  })
})
