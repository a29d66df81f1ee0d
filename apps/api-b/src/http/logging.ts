/**
 * Paths pino blanks in every log line (see `withRedaction`): credentials in headers and any password or token
 * a log call might include. Fastify's request serializer logs neither headers nor bodies.
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
