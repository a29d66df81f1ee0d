import type { FastifyInstance } from 'fastify'
import { checkApiEnvelope } from '../checks.js'
import { type ApiOperation, documentOf, operationsOf } from '../openapi/document.js'
import { documentOracle } from '../openapi/oracle.js'
import type { FuzzRequest, FuzzResponse, FuzzRoute } from '../target.js'

/** A documented operation as a route of the older families (`fields` are its body and query names). */
function routeOf(operation: ApiOperation): FuzzRoute {
  const fields = [
    ...Object.keys(operation.body?.schema.properties ?? {}),
    ...operation.parameters.filter((p) => p.in === 'query').map((p) => p.name),
  ]
  return {
    method: operation.method,
    path: operation.path,
    operation: operation.name,
    ...(operation.secured ? { auth: true } : {}),
    ...(fields.length > 0 ? { fields } : {}),
  }
}

/**
 * What an example API's own OpenAPI document gives the fuzzer: every operation (to generate from), the
 * routes for the older families, and the oracle: the envelope contract plus the document's responses.
 */
export function fromDocument(app: FastifyInstance, codes: ReadonlySet<string>) {
  const operations = operationsOf(documentOf(app))
  const envelope = checkApiEnvelope(codes)
  const document = documentOracle(operations)
  return {
    operations,
    routes: operations.map(routeOf),
    check: (request: FuzzRequest, response: FuzzResponse) => [
      ...envelope(request, response),
      ...document(request, response),
    ],
  }
}
