import fc from 'fast-check'
import { hugeString } from './inputs/hostile-text.js'
import {
  deepJson,
  encodeRaw,
  entry,
  invalidBytesMark,
  invalidUtf8,
  objectText,
  pollutingEntries,
} from './inputs/raw-json.js'
import { hostileParameter, hostileValue, type JsonSchema, validObject, validValue } from './inputs/schema-values.js'
import { percentEncode } from './inputs/text.js'
import type { ApiOperation, ApiParameter } from './openapi/document.js'
import { selfId, sessionAuthorization } from './session.js'
import type { FuzzRequest } from './target.js'

/**
 * The families generated from the operations' schemas (the OpenAPI document for the APIs): every
 * operation, every parameter and every body field, mostly valid so the request gets past validation and
 * auth, with one part hostile.
 */
export type SchemaFamilyName = 'fields' | 'params' | 'encoding'

const pick = <T>(items: readonly T[], what: string): fc.Arbitrary<T> => {
  if (items.length === 0) throw new Error(`no ${what} to fuzz`)
  return fc.constantFrom(...items)
}

/** A valid token on nine requests in ten to a secured operation (the tenth tests the auth check). */
const authFor = (operation: ApiOperation): fc.Arbitrary<Record<string, string>> =>
  operation.secured
    ? fc.oneof(
        { weight: 9, arbitrary: fc.constant({ authorization: sessionAuthorization }) },
        { weight: 1, arbitrary: fc.constant({}) },
      )
    : fc.constant({})

/** A path parameter's valid value: the session user's own id (secured operations) or a small existing id. */
const validPathValue = (operation: ApiOperation, parameter: ApiParameter): fc.Arbitrary<string> =>
  operation.secured
    ? fc.oneof({ weight: 3, arbitrary: fc.constant(selfId) }, validValue(parameter.schema).map(String))
    : validValue(parameter.schema).map(String)

const inPath = (operation: ApiOperation) => operation.parameters.filter((p) => p.in === 'path')
const inQuery = (operation: ApiOperation) => operation.parameters.filter((p) => p.in === 'query')
const inHeaders = (operation: ApiOperation) =>
  operation.parameters.filter((p) => p.in === 'header' || p.in === 'cookie')

/** What reaches a server in a header over TCP (tab, visible ASCII, Latin-1); the rest cannot be sent. */
const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '').slice(0, 8_000)

function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = values[name] ?? '1'
    return value === selfId ? selfId : percentEncode(value)
  })
}

/** Query parameters, each present or not, valid or (when `hostile`) hostile. */
function queryOf(operation: ApiOperation, hostile: boolean): fc.Arbitrary<string> {
  const parts = inQuery(operation).map((p) => {
    const value = hostile ? hostileParameter(p.schema) : validValue(p.schema).map(String)
    return fc.option(
      value.map((v) => `${encodeURIComponent(p.name)}=${percentEncode(v)}`),
      { freq: 2 },
    )
  })
  // Repeated and prototype-named keys, which a naive query parser turns into arrays or pollution.
  const extra = hostile
    ? fc.option(
        fc.oneof(
          fc.constantFrom('__proto__[polluted]=1', 'constructor[prototype][polluted]=1', '__proto__=x'),
          pick(
            inQuery(operation)
              .map((p) => p.name)
              .concat('x'),
            'query',
          ).map((name) => `${name}=1&${name}=2`),
        ),
        { freq: 4 },
      )
    : fc.constant(null)
  return fc.tuple(fc.tuple(...parts), extra).map(([ps, more]) => [...ps, more].filter((p) => p !== null).join('&'))
}

const bodyProperties = (schema: JsonSchema) => Object.entries(schema.properties ?? {})

/**
 * A body of the documented type: valid fields with one change: a field's value made hostile, a key
 * repeated (the second hostile), a prototype-polluting key, an unknown key, or a required field dropped.
 */
function hostileBodyText(schema: JsonSchema): fc.Arbitrary<string> {
  const properties = bodyProperties(schema)
  const base = validObject(schema).map((entries) => entries.map(([k, v]) => entry(k, JSON.stringify(v))))
  if (properties.length === 0) {
    return fc.oneof(
      deepJson,
      fc.constantFrom(...pollutingEntries).map((e) => objectText([e])),
    )
  }
  const field = pick(properties, 'body fields')
  const oneHostile = fc.tuple(base, field).chain(([entries, [name, inner]]) =>
    hostileValue(inner).map((raw) => {
      const others = entries.filter((e) => !e.startsWith(`${JSON.stringify(name)}:`))
      return objectText([...others, entry(name, raw)])
    }),
  )
  const duplicated = fc
    .tuple(base, field, fc.boolean())
    .chain(([entries, [name, inner], first]) =>
      hostileValue(inner).map((raw) =>
        objectText(first ? [entry(name, raw), ...entries] : [...entries, entry(name, raw)]),
      ),
    )
  const polluted = fc
    .tuple(base, fc.constantFrom(...pollutingEntries), fc.boolean())
    .map(([entries, bad, first]) => objectText(first ? [bad, ...entries] : [...entries, bad]))
  const unknown = fc
    .tuple(base, fc.constantFrom('id', 'role', 'is_admin', 'password_hash', 'owner_id', 'x'), hostileValue({}))
    .map(([entries, name, raw]) => objectText([...entries, entry(name, raw)]))
  const missing = fc
    .tuple(base, fc.nat())
    .map(([entries, i]) => objectText(entries.filter((_, j) => entries.length === 0 || j !== i % entries.length)))
  return fc.oneof(
    { weight: 8, arbitrary: oneHostile },
    { weight: 2, arbitrary: duplicated },
    { weight: 2, arbitrary: polluted },
    { weight: 1, arbitrary: unknown },
    { weight: 1, arbitrary: missing },
  )
}

/**
 * Bodies that attack the parser's bytes rather than the schema: invalid or overlong UTF-8 inside a
 * string, a BOM, nesting deep enough to overflow a recursive parser, a 1 MiB string field, two
 * documents back to back, a number literal no double holds as the whole body.
 */
function rawBodyText(schema: JsonSchema): fc.Arbitrary<string> {
  const properties = bodyProperties(schema)
  const base = validObject(schema).map((entries) => entries.map(([k, v]) => entry(k, JSON.stringify(v))))
  const name = properties.length > 0 ? pick(properties, 'fields').map(([n]) => n) : fc.constant('a')
  const withValue = (value: fc.Arbitrary<string>) =>
    fc.tuple(base, name, value).map(([entries, n, raw]) => {
      const others = entries.filter((e) => !e.startsWith(`${JSON.stringify(n)}:`))
      return objectText([...others, entry(n, raw)])
    })
  return fc.oneof(
    { weight: 4, arbitrary: withValue(fc.constantFrom(`"${invalidBytesMark}"`, `"ok${invalidBytesMark}ok"`)) },
    { weight: 2, arbitrary: withValue(deepJson) },
    { weight: 2, arbitrary: withValue(hugeString.map((s) => JSON.stringify(s))) },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: base.map((entries) => `\ufeff${objectText(entries)}`) },
    { weight: 1, arbitrary: base.map((entries) => `${objectText(entries)}${objectText(entries)}`) },
    { weight: 1, arbitrary: base.map((entries) => `${objectText(entries)}${invalidBytesMark}`) },
    { weight: 1, arbitrary: fc.constantFrom('1e400', '-0', '"\\u0000"', 'null', '') },
  )
}

/** Everything but the body of a request to `operation`: path, query, headers (valid unless told). */
function requestFrame(operation: ApiOperation, hostileParams: boolean) {
  const pathValues = fc.tuple(
    ...inPath(operation).map((p) =>
      (hostileParams
        ? fc.oneof(validPathValue(operation, p), hostileParameter(p.schema))
        : validPathValue(operation, p)
      ).map((v): [string, string] => [p.name, v]),
    ),
  )
  const headerValues = fc.tuple(
    ...inHeaders(operation).map((p) =>
      fc
        .option((hostileParams ? hostileParameter(p.schema) : validValue(p.schema).map(String)).map(headerSafe), {
          freq: 2,
        })
        .map((v): [string, string] | null =>
          v === null
            ? null
            : p.in === 'cookie'
              ? ['cookie', `${p.name}=${percentEncode(v)}`]
              : [p.name.toLowerCase(), v],
        ),
    ),
  )
  return fc
    .tuple(pathValues, queryOf(operation, hostileParams), headerValues, authFor(operation))
    .map(([path, query, headers, auth]) => {
      const url = `${fillPath(operation.path, Object.fromEntries(path))}${query ? `?${query}` : ''}`
      const all: Record<string, string> = { ...auth }
      for (const h of headers) if (h) all[h[0]] = h[1]
      return { url, headers: all }
    })
}

function withBody(operation: ApiOperation, text: fc.Arbitrary<string>): fc.Arbitrary<FuzzRequest> {
  const contentType = operation.body?.contentTypes[0] ?? 'application/json'
  return fc
    .tuple(requestFrame(operation, false), text, fc.shuffledSubarray([...invalidUtf8], { minLength: 1, maxLength: 3 }))
    .map(([frame, body, sequences]) => ({
      method: operation.method,
      url: frame.url,
      headers: { ...frame.headers, 'content-type': contentType },
      payload: encodeRaw(body, sequences),
      operation: operation.name,
    }))
}

/** Valid parameters but one body field (or the body's structure) hostile. */
function fieldsFamily(operations: readonly ApiOperation[]): fc.Arbitrary<FuzzRequest> {
  const withBodies = operations.filter((op) => op.body)
  return pick(withBodies, 'operations with bodies').chain((op) => withBody(op, hostileBodyText(op.body?.schema ?? {})))
}

/** Hostile path, query and header parameters on every operation; bodies (where documented) valid. */
function paramsFamily(operations: readonly ApiOperation[]): fc.Arbitrary<FuzzRequest> {
  return pick(operations, 'operations').chain((op) => {
    const body = op.body
      ? validObject(op.body.schema).map((entries) => Buffer.from(JSON.stringify(Object.fromEntries(entries))))
      : fc.constant(undefined)
    return fc.tuple(requestFrame(op, true), body).map(([frame, payload]): FuzzRequest => {
      const request: FuzzRequest = { method: op.method, url: frame.url, headers: frame.headers, operation: op.name }
      if (payload) {
        request.headers = { ...frame.headers, 'content-type': op.body?.contentTypes[0] ?? 'application/json' }
        request.payload = payload
      }
      return request
    })
  })
}

/** Raw-byte attacks on the bodies of every operation that takes one. */
function encodingFamily(operations: readonly ApiOperation[]): fc.Arbitrary<FuzzRequest> {
  const withBodies = operations.filter((op) => op.body)
  return pick(withBodies, 'operations with bodies').chain((op) => withBody(op, rawBodyText(op.body?.schema ?? {})))
}

/** The schema-driven families a target's operations support. */
export function schemaFamiliesOf(
  operations: readonly ApiOperation[],
): Partial<Record<SchemaFamilyName, fc.Arbitrary<FuzzRequest>>> {
  if (operations.length === 0) return {}
  const families: Partial<Record<SchemaFamilyName, fc.Arbitrary<FuzzRequest>>> = { params: paramsFamily(operations) }
  if (operations.some((op) => op.body)) {
    families.fields = fieldsFamily(operations)
    families.encoding = encodingFamily(operations)
  }
  return families
}
