import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'

/** `onRequest` hook: the answer (success or error) may not be stored by the client or any cache. */
export function noStore(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.header('cache-control', 'no-store')
  done()
}
