import type { TSchema } from 'typebox'
import type { BindingConfig } from './config.js'
import { node } from './schema.js'

/** Returned by a converter that cannot read its input. */
export const FAIL: unique symbol = Symbol('weft.fail')

/** Turns one raw string into the schema's type, or returns {@link FAIL}. */
export type Converter = (raw: string) => unknown

/** A compiled converter and how to name what it expects in an error message. */
export type ScalarConverter = { convert: Converter; expected: string }

/**
 * strconv.ParseBool's words (as Fiber reads them), plus the on/off an HTML checkbox sends. A switch,
 * not a table: looking a request's string up in an object first finds it among the engine's
 * interned strings, which costs more than comparing it with these few words.
 */
function booleanOf(raw: string): boolean | undefined {
  switch (raw) {
    case 'true':
    case '1':
    case 't':
    case 'T':
    case 'TRUE':
    case 'True':
    case 'on':
      return true
    case 'false':
    case '0':
    case 'f':
    case 'F':
    case 'FALSE':
    case 'False':
    case 'off':
      return false
    default:
      return undefined
  }
}

const identity: Converter = (raw) => raw

/**
 * True for an optional sign and ASCII digits (`^[+-]?[0-9]+$`), checked by hand: every integer
 * field of every query, form and header goes through here, and a regular expression call costs
 * more than the whole scan of a short number.
 */
function isIntegerText(raw: string): boolean {
  const length = raw.length
  let i = length > 1 && (raw.charCodeAt(0) === 43 || raw.charCodeAt(0) === 45) ? 1 : 0
  if (i === length) return false
  for (; i < length; i++) {
    const code = raw.charCodeAt(i)
    if (code < 48 || code > 57) return false
  }
  return true
}

function integer(zeroEmpty: boolean): Converter {
  return (raw) => {
    if (isIntegerText(raw)) return Number(raw)
    return zeroEmpty && raw === '' ? 0 : FAIL
  }
}

function number(zeroEmpty: boolean): Converter {
  return (raw) => {
    const value = Number(raw)
    // Number() reads blank text as 0, so only a 0 needs the (allocating) check for blank text
    if (value === 0 && raw.trim() === '') return zeroEmpty && raw === '' ? 0 : FAIL
    return Number.isFinite(value) ? value : FAIL
  }
}

function boolean(zeroEmpty: boolean): Converter {
  return (raw) => {
    const value = booleanOf(raw)
    if (value !== undefined) return value
    return zeroEmpty && raw === '' ? false : FAIL
  }
}

const nullValue: Converter = (raw) => (raw === '' || raw === 'null' ? null : FAIL)

function custom(converter: (value: string) => unknown): Converter {
  return (raw) => {
    try {
      return converter(raw)
    } catch {
      return FAIL
    }
  }
}

function byType(type: unknown, zeroEmpty: boolean): ScalarConverter | undefined {
  switch (type) {
    case 'integer':
      return { convert: integer(zeroEmpty), expected: 'an integer' }
    case 'number':
      return { convert: number(zeroEmpty), expected: 'a number' }
    case 'boolean':
      return { convert: boolean(zeroEmpty), expected: 'a boolean' }
    case 'null':
      return { convert: nullValue, expected: 'null' }
    case 'string':
      return { convert: identity, expected: 'a string' }
    default:
      return undefined
  }
}

function union(members: ScalarConverter[]): ScalarConverter {
  const converters = members.map((m) => m.convert)
  return {
    convert: (raw) => {
      for (const convert of converters) {
        const value = convert(raw)
        if (value !== FAIL) return value
      }
      return FAIL
    },
    expected: members.map((m) => m.expected).join(' or '),
  }
}

/**
 * Compiles the converter of a scalar schema: by `format` when `setParserDecoder` registered one,
 * else by `type`, `const`, `enum` or the members of an `anyOf`. Anything else is kept as a string
 * (the validator then judges it).
 */
export function scalarConverter(schema: TSchema, config: BindingConfig): ScalarConverter {
  const n = node(schema)
  const byFormat = n.format === undefined ? undefined : config.converters.get(n.format)
  if (byFormat !== undefined) return { convert: custom(byFormat), expected: `a valid ${n.format}` }
  if (n.const !== undefined) {
    return byType(typeof n.const, config.zeroEmpty) ?? { convert: identity, expected: 'a string' }
  }
  if (Array.isArray(n.type)) return union(n.type.map((t) => scalarConverter({ type: t }, config)))
  const typed = byType(n.type, config.zeroEmpty)
  if (typed !== undefined) return typed
  if (n.enum !== undefined) return enumConverter(n.enum)
  if (n.anyOf !== undefined) return union(n.anyOf.map((member) => scalarConverter(member, config)))
  return { convert: identity, expected: 'a string' }
}

function enumConverter(values: unknown[]): ScalarConverter {
  const table = new Map(values.map((v) => [String(v), v]))
  return { convert: (raw) => (table.has(raw) ? table.get(raw) : raw), expected: 'an allowed value' }
}
