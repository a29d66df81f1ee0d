import type { FastifyServerOptions } from 'fastify'

/**
 * Paths pino blanks in every log line: credentials in headers and any password or token that a
 * log call might include. Fastify's request serializer logs neither headers nor bodies; this is the
 * second line of defence.
 */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'body.password',
  'password',
  'access_token',
  '*.password',
  '*.access_token',
]

/** Fastify's logger option with redaction added (`false` stays off). */
export function loggerOptions(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false
  const base = logger === true ? {} : logger
  return { ...base, redact: { paths: redactedPaths, censor: '[redacted]' } }
}
