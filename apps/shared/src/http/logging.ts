import type { FastifyServerOptions } from 'fastify'

/**
 * Fastify's logger option with pino's redaction of `paths` added (`false` stays off). Fastify's request logs
 * hold the method, URL and remote address, never headers or bodies; the redaction guards anything logged later.
 */
export function withRedaction(
  logger: FastifyServerOptions['logger'],
  paths: readonly string[],
): FastifyServerOptions['logger'] {
  if (!logger) return false
  const options = logger === true ? {} : logger
  return { ...options, redact: { paths: [...paths], censor: '[redacted]' } }
}
