import type { FastifyInstance } from 'fastify'
import { addKeepingParser } from './body-bytes.js'
import { type CustomBinder, ensureConfig } from './config.js'

/**
 * Registers a custom binder on `app` (Fiber's `RegisterCustomBinder`) and makes Fastify accept
 * its MIME types there: each type without a parser gets one that keeps the body's bytes
 * (`request.body` a Buffer) for `parse`. Like Fastify's own parsers, it reaches `app`'s routes and
 * the child contexts registered after it, not its parent or siblings.
 *
 * @example
 * registerCustomBinder(app, { name: 'yaml', mimeTypes: ['application/yaml'], parse })
 * const out = await bind(request).custom('yaml', Schema)
 */
export function registerCustomBinder(app: FastifyInstance, binder: CustomBinder): void {
  const config = ensureConfig(app)
  config.customBinders.set(binder.name, binder)
  for (const type of binder.mimeTypes) {
    const mediaType = type.toLowerCase()
    if (!app.hasContentTypeParser(mediaType)) addKeepingParser(app, mediaType)
  }
}
