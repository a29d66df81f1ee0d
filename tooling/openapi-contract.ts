import { Ajv, type ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'

/**
 * Contract tests: every response an app's test suite receives through `app.inject` is checked against
 * the app's own OpenAPI document (`app.swagger()`), with Ajv on the document itself (JSON Schema 2020-12 for
 * an OpenAPI 3.1 document, whose schemas are that dialect), so the document and the server cannot drift apart. A response breaks the contract when its operation is not
 * documented, its status is not (neither exactly nor as `4XX`/`5XX`/`default`), or its JSON body does
 * not match the documented schema.
 *
 * @example
 * const contract = watchContract(app)
 * // ... tests call app.inject(...) ...
 * expect(contract.violations).toEqual([])
 */
export interface ContractWatch {
  /** One line per response that broke the contract: `GET /api/users/1 -> 200: data/id must be integer`. */
  readonly violations: string[]
  /** How many responses were checked. */
  readonly checked: number
}

interface Operation {
  method: string
  pattern: RegExp
  template: string
  statuses: Set<string>
}

type Document = {
  openapi?: string
  paths?: Record<string, Record<string, { responses?: Record<string, ResponseObject> }>>
}
type ResponseObject = { content?: Record<string, { schema?: unknown }> }

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options']

/** `/api/users/{id}` -> a regular expression matching `/api/users/42`. */
function pathPattern(template: string): RegExp {
  const literal = (part: string) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')
  return new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map(literal)
      .join('[^/]+')}$`,
  )
}

/** JSON-pointer escaping of one path segment. */
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1')

/** The document's operations, and a lazily compiled validator per documented JSON response. */
function compileDocument(document: Document) {
  const options = { strict: false, allErrors: true, validateFormats: true }
  const ajv = document.openapi?.startsWith('3.1') ? new Ajv2020(options) : new Ajv(options)
  addFormats.default(ajv)
  ajv.addSchema(document as object, 'openapi')
  const operations: Operation[] = []
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method]
      if (!operation) continue
      operations.push({
        method: method.toUpperCase(),
        template,
        pattern: pathPattern(template),
        statuses: new Set(Object.keys(operation.responses ?? {})),
      })
    }
  }
  const validators = new Map<string, ValidateFunction | null>()
  /** The compiled schema of one documented response's JSON body, or null when it has none. */
  const validatorFor = (operation: Operation, status: string) => {
    const key = `${operation.method} ${operation.template} ${status}`
    if (!validators.has(key)) {
      const method = operation.method.toLowerCase()
      const schema =
        document.paths?.[operation.template]?.[method]?.responses?.[status]?.content?.['application/json']?.schema
      const ref = `openapi#/paths/${pointer(operation.template)}/${method}/responses/${status}/content/application~1json/schema`
      validators.set(key, schema === undefined ? null : ajv.compile({ $ref: ref }))
    }
    return validators.get(key) ?? null
  }
  return { operations, validatorFor }
}

export function watchContract(app: FastifyInstance): ContractWatch {
  // The document exists once the app is ready, which its first inject makes it: read it then.
  let compiled: ReturnType<typeof compileDocument> | undefined
  const contract = () => {
    compiled ??= compileDocument((app as unknown as { swagger(): Document }).swagger())
    return compiled
  }
  const watch = { violations: [] as string[], checked: 0 }
  const check = (method: string, url: string, response: LightMyRequestResponse) => {
    const path = url.split('?')[0] ?? url
    const { operations, validatorFor } = contract()
    const operation = operations.find((op) => op.method === method && op.pattern.test(path))
    // Undocumented paths (the docs themselves, unknown URLs answered 404) are not operations.
    if (!operation) return
    watch.checked++
    const code = String(response.statusCode)
    const status = [code, `${code[0]}XX`, 'default'].find((s) => operation.statuses.has(s))
    const where = `${method} ${path} -> ${code}`
    if (!status) {
      watch.violations.push(`${where}: status not documented (documented: ${[...operation.statuses].join(', ')})`)
      return
    }
    const type = String(response.headers['content-type'] ?? '')
    if (!type.startsWith('application/json') || response.body === '') return
    const validate = validatorFor(operation, status)
    if (!validate) {
      watch.violations.push(`${where}: a JSON body where the document promises none`)
      return
    }
    if (!validate(response.json())) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`).join('; ')
      watch.violations.push(`${where}: ${errors}`)
    }
  }

  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>
  // Every test goes through app.inject(options): check what it returns, then hand it back unchanged.
  ;(app as unknown as { inject: typeof inject }).inject = async (options: InjectOptions | string) => {
    const response = await inject(options)
    const { method = 'GET', url, path } = typeof options === 'string' ? { url: options, path: undefined } : options
    check(String(method).toUpperCase(), String(url ?? path ?? '/'), response)
    return response
  }
  return watch
}
