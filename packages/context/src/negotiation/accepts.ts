import { mimeOf } from '../content-type.js'
import { type AcceptKind, type AcceptRange, type ParsedAccept, parseAccept } from './accept-header.js'

/** An offer parsed for matching (media: type/subtype/params; others: the lower-cased token). */
interface Offer {
  main: string
  sub: string
  params: string[] | undefined
}

const NO_MATCH: Offer = { main: '', sub: '', params: undefined }
const MAX_CACHED_OFFERS = 512
const offerCaches: Record<AcceptKind, Map<string, Offer>> = {
  media: new Map(),
  charset: new Map(),
  encoding: new Map(),
  language: new Map(),
}

/**
 * Parses a media offer: a full type (`text/html;level=1`, also a wildcard like `text/*`) or an
 * extension (`html`, `.json`); an unknown extension stands for `application/octet-stream`, as in
 * Fiber (Express never matches it).
 */
function parseMediaOffer(offer: string): Offer {
  const type = offer.includes('/') ? offer : mimeOf(offer.trim())
  // an offer has the syntax of one Accept entry, so the header parser reads it
  const entry = parseAccept(type, 'media')?.positive[0]
  if (entry === undefined) return NO_MATCH
  return { main: entry.main, sub: entry.sub, params: entry.params }
}

/** Parses an offer once; offers are usually constants, so parsed offers are kept (bounded). */
function parseOffer(kind: AcceptKind, offer: string): Offer {
  const cache = offerCaches[kind]
  let parsed = cache.get(offer)
  if (parsed === undefined) {
    parsed =
      kind === 'media' ? parseMediaOffer(offer) : { main: offer.trim().toLowerCase(), sub: '', params: undefined }
    if (cache.size >= MAX_CACHED_OFFERS) cache.clear()
    cache.set(offer, parsed)
  }
  return parsed
}

/** True when every parameter of the range is present, with the same value, in the offer. */
function paramsMatch(range: string[] | undefined, offer: string[] | undefined): boolean {
  if (range === undefined) return true
  if (offer === undefined) return false
  for (let i = 0; i < range.length; i += 2) {
    let found = false
    for (let j = 0; j < offer.length; j += 2) {
      if (offer[j] === range[i] && offer[j + 1] === range[i + 1]) {
        found = true
        break
      }
    }
    if (!found) return false
  }
  return true
}

/** Does `range` accept `offer`? Languages use RFC 4647 basic filtering (prefix on `-`). */
function matches(kind: AcceptKind, range: AcceptRange, offer: Offer): boolean {
  if (offer === NO_MATCH) return false
  if (kind === 'media') {
    return (
      (range.main === '*' || range.main === offer.main) &&
      // a wildcard subtype on either side matches inside one type (Fiber: offer `text/*` vs `text/html`)
      (range.sub === '*' || offer.sub === '*' || range.sub === offer.sub) &&
      paramsMatch(range.params, offer.params)
    )
  }
  if (range.main === '*' || range.main === offer.main) return true
  if (kind !== 'language' && range.main.endsWith('*')) {
    // a prefix wildcard of Accept-Charset/-Encoding: `utf-*` matches `utf-8`
    return offer.main.startsWith(range.main.slice(0, -1))
  }
  return (
    kind === 'language' &&
    offer.main.length > range.main.length &&
    offer.main.charCodeAt(range.main.length) === 45 &&
    offer.main.startsWith(range.main)
  )
}

/**
 * For each offer, the rank of the most specific `q=0` range that matches it (-1: none). Computed
 * once per call, so a header of many refusing ranges costs ranges x offers, not that again for
 * every positive range.
 */
function refusalRanks(kind: AcceptKind, zero: AcceptRange[], offers: Offer[]): number[] {
  return offers.map((offer) => {
    let rank = -1
    for (const range of zero) if (range.rank > rank && matches(kind, range, offer)) rank = range.rank
    return rank
  })
}

/**
 * Picks the offer the client prefers: ranges are tried best first (quality, specificity,
 * parameter count, header order) and, inside one range, offers in the caller's order. An offer
 * is refused by a `q=0` range that matches it at least as specifically as the positive match.
 * An absent or blank header accepts the first offer; nothing acceptable gives `''`.
 */
export function negotiate(kind: AcceptKind, parsed: ParsedAccept | undefined, offers: readonly string[]): string {
  if (parsed === undefined) return offers[0] ?? ''
  const parsedOffers = offers.map((offer) => parseOffer(kind, offer))
  const refusedAt = parsed.zero.length > 0 ? refusalRanks(kind, parsed.zero, parsedOffers) : undefined
  for (const range of parsed.positive) {
    for (let i = 0; i < parsedOffers.length; i++) {
      if (
        matches(kind, range, parsedOffers[i] as Offer) &&
        !(refusedAt !== undefined && (refusedAt[i] as number) >= range.rank)
      ) {
        return offers[i] as string
      }
    }
  }
  return ''
}
