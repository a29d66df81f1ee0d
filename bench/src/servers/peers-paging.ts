// Paging by hand, as a user of a framework without a pagination helper writes it (Fastify, Express
// and Hono peers): page/limit/sort with @weft/pagination's defaults and Link next/prev.
import { paging } from './peers-shared.js'

export interface PageQuery {
  page: number
  limit: number
  field: string
  descending: boolean
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)
const whole = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined)

/** Reads `page`, `limit` and `sort` (`-price`: descending; the first allowed field wins). */
export function pageQuery(query: Record<string, string | string[] | undefined>): PageQuery {
  const page = Math.max(1, whole(first(query.page)) ?? 1)
  const limit = Math.min(paging.maxLimit, whole(first(query.limit)) || paging.defaultLimit)
  for (const item of (first(query.sort) ?? '').split(',')) {
    const trimmed = item.trim()
    const descending = trimmed.startsWith('-')
    const field = descending ? trimmed.slice(1) : trimmed
    if (paging.allowedSorts.includes(field)) return { page, limit, field, descending }
  }
  return { page, limit, field: paging.defaultSort, descending: false }
}

/** The Link header: the request's URL with `page` moved to the next (and previous) page; entries
 *  joined by a bare `,` as @weft/context's `links()` does (RFC 8288 allows either). */
export function pagingLinks(url: string, page: PageQuery): string {
  const at = url.indexOf('?')
  const path = at < 0 ? url : url.slice(0, at)
  const link = (to: number) => {
    const params = new URLSearchParams(at < 0 ? '' : url.slice(at + 1))
    params.set('page', String(to))
    params.set('limit', String(page.limit))
    return `<${path}?${params}>; rel="${to > page.page ? 'next' : 'prev'}"`
  }
  return page.page > 1 ? `${link(page.page + 1)},${link(page.page - 1)}` : link(page.page + 1)
}
