/**
 * Log paths that may carry secrets; pino replaces their values. Fastify's request logs hold the method,
 * URL and remote address, never headers or bodies; the redaction guards anything logged later.
 */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.current_password',
  '*.refresh_token',
  '*.access_token',
  '*.passwordHash',
]
