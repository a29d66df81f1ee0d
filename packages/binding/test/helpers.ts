import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { type WeftBindingOptions, weftBinding } from '../src/index.js'
import { xmlBodies } from '../src/xml.js'

/** Handler of a test route: returns what the test wants to see in the body. */
export type TestHandler = (request: FastifyRequest, reply: FastifyReply) => unknown

/**
 * A Fastify app with `weftBinding`, XML bodies enabled (`xmlBodies`), and one handler answering on `/` and `/items/:id` for every
 * method; `setup` runs before the routes are added (extra plugins, decoder settings).
 */
export async function makeApp(
  handler: TestHandler,
  options: WeftBindingOptions = {},
  setup?: (app: FastifyInstance) => unknown,
): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(weftBinding, options)
  await app.register(xmlBodies)
  await setup?.(app)
  app.all('/', handler)
  app.all('/items/:id', handler)
  return app
}

/** One part of a multipart body built by {@link multipart}. */
export type Part = { name: string; value: string } | { name: string; filename: string; type: string; content: string }

/** A `multipart/form-data` payload and its headers, for `app.inject`. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----weft-test-boundary'
  const chunks: string[] = []
  for (const part of parts) {
    chunks.push(`--${boundary}\r\n`)
    if ('filename' in part) {
      chunks.push(`Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n`)
      chunks.push(`Content-Type: ${part.type}\r\n\r\n${part.content}\r\n`)
    } else {
      chunks.push(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`)
    }
  }
  chunks.push(`--${boundary}--\r\n`)
  return {
    payload: Buffer.from(chunks.join('')),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}
