import type { FastifyInstance } from 'fastify'
import { mediaTypeOfHeader } from './content-type.js'

/**
 * The media types whose parser, in one encapsulation context, is one of binding's and keeps the
 * body's bytes (exact names and `+suffix` patterns), and which of those parsers are binding's
 * defaults (added for types no parser covered), which child contexts give up (default-parsers.ts).
 */
export type KeptTypes = { names: Set<string>; patterns: RegExp[]; defaults: (string | RegExp)[] }

const kKeptTypes = Symbol.for('@weft/binding.keptTypes')

type Holder = { [kKeptTypes]?: KeptTypes }

const none: KeptTypes = { names: new Set(), patterns: [], defaults: [] }

// The last instance asked and its record: looking the symbol up walks the encapsulation
// prototypes, and @weft/context asks on every request with a body (records change in place; only
// a new one, ownKeptTypes(), resets this).
let lastServer: unknown
let lastKept: KeptTypes = none

/** The kept types of the context of `server` (a route's instance: `request.server`). */
export function keptTypesOf(server: FastifyInstance): KeptTypes {
  if (server !== lastServer) {
    lastKept = (server as Holder)[kKeptTypes] ?? none
    lastServer = server
  }
  return lastKept
}

/** The kept types of `app`'s own context, made there when missing (a copy of its parent's). */
export function ownKeptTypes(app: FastifyInstance): KeptTypes {
  const holder = app as Holder
  if (Object.hasOwn(holder, kKeptTypes)) return holder[kKeptTypes] as KeptTypes
  const inherited = holder[kKeptTypes] ?? none
  return setOwn(holder, {
    names: new Set(inherited.names),
    patterns: [...inherited.patterns],
    defaults: [...inherited.defaults],
  })
}

/**
 * Gives `child` (a context just made) kept types of its own without its parent's defaults, and
 * returns those defaults: the types whose parser the child is to remove.
 */
export function withoutInheritedDefaults(child: FastifyInstance): (string | RegExp)[] {
  const holder = child as Holder
  const inherited = holder[kKeptTypes] ?? none
  const dropped = inherited.defaults
  setOwn(holder, {
    names: new Set([...inherited.names].filter((name) => !dropped.includes(name))),
    patterns: inherited.patterns.filter((pattern) => !dropped.includes(pattern)),
    defaults: [],
  })
  return dropped
}

function setOwn(holder: Holder, kept: KeptTypes): KeptTypes {
  Object.defineProperty(holder, kKeptTypes, { value: kept, writable: true, configurable: true })
  lastServer = undefined
  return kept
}

/** Records that `type`'s parser in `kept`'s context is binding's and keeps the bytes. */
export function recordKeptType(kept: KeptTypes, type: string | RegExp): void {
  if (typeof type === 'string') kept.names.add(type.toLowerCase())
  // the plugin may be registered again in the same context: one entry per pattern
  else if (!kept.patterns.some((known) => known.source === type.source && known.flags === type.flags)) {
    kept.patterns.push(type)
  }
}

/** Whether a Content-Type header names one of the kept media types. */
export function isKeptType(kept: KeptTypes, header: string | undefined): boolean {
  // a body without a Content-Type has the media type `/` to Fastify (untyped-body.ts)
  if (header !== undefined && kept.names.has(header)) return true
  const mediaType = header === undefined ? '/' : mediaTypeOfHeader(header)
  if (kept.names.has(mediaType)) return true
  for (const pattern of kept.patterns) if (pattern.test(mediaType)) return true
  return false
}
