import type { FastifyPluginCallback } from 'fastify'
import fp from 'fastify-plugin'
import type { PaginationConfig } from './config.js'
import { paginate } from './hook.js'

/**
 * Options of the `weftPagination` plugin: the pagination config, plus the hook it runs in.
 *
 * @example
 * ```ts
 * await app.register(weftPagination, { sortKey: 'sort', allowedSorts: ['id', 'name'] })
 * ```
 */
export interface WeftPaginationOptions extends PaginationConfig {
  /**
   * Lifecycle hook to parse in. `'onRequest'` (default) rejects bad cursors before the body is
   * read; `'preHandler'` parses after body parsing and schema validation, so those answer first.
   */
  hook?: 'onRequest' | 'preHandler'
}

const plugin: FastifyPluginCallback<WeftPaginationOptions> = (fastify, options, done) => {
  fastify.addHook(options.hook ?? 'onRequest', paginate(options))
  done()
}

/** Applies `paginate(options)` to every route of the scope it is registered in. */
export const weftPagination = fp(plugin, { fastify: '5.x', name: '@weft/pagination' })
