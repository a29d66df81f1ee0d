import type { TSchema } from 'typebox'
import { BindingSetupError } from './errors.js'
import { node, tagOf } from './schema.js'

/** A source `all()` reads. */
export type SourceName = 'uri' | 'body' | 'query' | 'header' | 'cookie'

/** The source names `bindingSource` accepts, in the default precedence of `all()`. */
export const SOURCE_NAMES: readonly SourceName[] = ['uri', 'body', 'query', 'header', 'cookie']

/** Comma-separated lists of distinct names of `Names`, in any order (`'header,query'`). */
type Lists<Names extends string, All extends string = Names> = Names extends unknown
  ? Names | `${Names},${Lists<Exclude<All, Names>>}`
  : never

/**
 * What the `bindingSource` schema option takes: source names, comma-separated, each once
 * (`'header,query'`), so that a typo (`'headers,qury'`) is a TypeScript error. At run time,
 * spaces, empty names and repeats are skipped and an unknown name is a setup error.
 */
export type BindingSourceList = Lists<SourceName>

declare module 'typebox' {
  interface TSchemaOptions {
    /**
     * `@weft/binding`: the sources `all()` reads for the whole schema, earlier winning (set on
     * one top-level field; names `uri`, `body`, `query`, `header`, `cookie`).
     */
    bindingSource?: BindingSourceList
  }
}

/**
 * The sources `all()` reads for `schema`, first (winning) to last: the `bindingSource` list of its
 * one top-level field that has one, else the default order. Empty names and repeats are skipped.
 * A list naming a source that does not exist, or lists on two fields, is the schema author's
 * mistake: a {@link BindingSetupError} (`WEFT_BAD_BINDING_SOURCE`) naming the field and the value,
 * thrown when the schema is compiled (at boot for route schemas), never a 400 for a client.
 */
export function bindingSources(schema: TSchema): readonly SourceName[] {
  const tagged: [string, string][] = []
  for (const [prop, child] of Object.entries(node(schema).properties ?? {})) {
    const list = tagOf(child, 'bindingSource')
    if (list !== undefined) tagged.push([prop, list])
  }
  if (tagged.length === 0) return SOURCE_NAMES
  if (tagged.length > 1) {
    const names = tagged.map(([prop]) => `"${prop}"`).join(', ')
    throw new BindingSetupError(
      'WEFT_BAD_BINDING_SOURCE',
      `only one field may have bindingSource (found on ${names}): it sets the sources of the whole schema`,
    )
  }
  const [prop, list] = tagged[0] as [string, string]
  return parseList(prop, list)
}

function parseList(prop: string, list: string): SourceName[] {
  const order: SourceName[] = []
  const unknown: string[] = []
  for (const raw of list.split(',')) {
    const name = raw.trim()
    if (name === '') continue
    if (!(SOURCE_NAMES as readonly string[]).includes(name)) unknown.push(`"${name}"`)
    else if (!order.includes(name as SourceName)) order.push(name as SourceName)
  }
  if (unknown.length > 0) {
    throw new BindingSetupError(
      'WEFT_BAD_BINDING_SOURCE',
      `bindingSource "${list}" of field "${prop}" names ${unknown.length === 1 ? 'an unknown source' : 'unknown sources'} ${unknown.join(', ')} (the sources are ${SOURCE_NAMES.join(', ')})`,
    )
  }
  return order
}
