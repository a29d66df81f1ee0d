import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { Ajv } from 'ajv'
import { parse } from 'yaml'

/**
 * What `docker compose config` does to a compose file, without any compose binary: YAML with merge keys
 * (`<<: *anchor`), `${VAR}` interpolation from an env file as the Compose Specification defines it
 * (`:-` / `-` defaults, `:?` / `?` errors, `:+` / `+` alternatives, `$$` for a literal `$`), validation
 * against the Compose Specification's JSON schema (the copy `dclint` ships), relative bind mounts and
 * secret files resolved from the project folder, and the `x-` extension fields dropped.
 * The tests read the result the way Compose v2 would run it; the real engine run (test/engine) runs it.
 */
// biome-ignore lint/suspicious/noExplicitAny: a compose model, whose fields the tests check one by one
type ComposeEntry = Record<string, any>

export interface ComposeResult {
  config: {
    name?: string
    services: ComposeEntry
    volumes: ComposeEntry
    secrets: ComposeEntry
  }
  /** Why Compose would refuse the file (a required variable unset, a schema violation); empty when it would not. */
  errors: string[]
  /** What Compose would warn about (a variable unset, read as an empty string). */
  warnings: string[]
}

/** `KEY=VALUE` lines of an env file (comments and blank lines skipped; surrounding quotes removed). */
export function readEnvFile(path: string): Record<string, string> {
  const values: Record<string, string> = {}
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = line.match(/^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/)
    if (!match?.[1]) continue
    values[match[1]] = (match[2] ?? '').replace(/^(['"])(.*)\1$/, '$2')
  }
  return values
}

const variable = /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g

/** One string with every `${...}` replaced as the Compose Specification says. */
function interpolate(text: string, env: Record<string, string>, errors: string[], warnings: string[]): string {
  return text.replace(variable, (whole, braced?: string, operator?: string, argument = '', bare?: string) => {
    if (whole === '$$') return '$'
    const name = (braced ?? bare) as string
    const value = env[name]
    const unset = value === undefined
    const empty = unset || value === ''
    switch (operator) {
      case ':-':
        return empty ? argument : (value as string)
      case '-':
        return unset ? argument : (value as string)
      case ':?':
      case '?':
        if (operator === ':?' ? empty : unset) {
          errors.push(`required variable ${name} is missing a value: ${argument}`)
          return ''
        }
        return value as string
      case ':+':
        return empty ? '' : argument
      case '+':
        return unset ? '' : argument
      default:
        if (unset) warnings.push(`The "${name}" variable is not set. Defaulting to a blank string.`)
        return value ?? ''
    }
  })
}

function interpolateAll(value: unknown, env: Record<string, string>, errors: string[], warnings: string[]): unknown {
  if (typeof value === 'string') return interpolate(value, env, errors, warnings)
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, env, errors, warnings))
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolateAll(item, env, errors, warnings)]),
    )
  }
  return value
}

let validateSchema: ReturnType<Ajv['compile']> | undefined

/** The Compose Specification's schema (draft-07), as shipped in `dclint`'s package. */
function composeSchema() {
  if (validateSchema) return validateSchema
  const dclint = dirname(createRequire(import.meta.url).resolve('dclint/package.json'))
  const { $schema, ...schema } = JSON.parse(readFileSync(join(dclint, 'schemas', 'compose.schema.json'), 'utf8'))
  // Draft-07 (Ajv's default), named by an https address Ajv does not know as that draft's: dropped.
  if (!String($schema).includes('draft-07')) throw new Error(`dclint's compose schema is ${$schema}, not draft-07`)
  // `strict: false`: the schema uses formats (`duration`...) and keywords Ajv does not check by default.
  validateSchema = new Ajv({ allErrors: true, strict: false }).compile(schema)
  return validateSchema
}

/** `./host/path:/container/path[:mode]` with the host side resolved from `projectDir`, as Compose prints it. */
function resolveBindMount(volume: unknown, projectDir: string): unknown {
  if (typeof volume !== 'string') return volume
  const [source, ...rest] = volume.split(':')
  if (!source?.startsWith('.') || rest.length === 0) return volume
  return [resolve(projectDir, source), ...rest].join(':')
}

/**
 * `docker compose -f <file> --project-directory <projectDir> --env-file <envFile> config`, in process.
 * Only the env file's values are read (not the caller's environment), so a result never depends on the machine.
 */
export function composeConfig(file: string, envFile: string, projectDir: string): ComposeResult {
  const errors: string[] = []
  const warnings: string[] = []
  const raw = parse(readFileSync(file, 'utf8'), { merge: true }) as Record<string, unknown>
  const env = readEnvFile(envFile)
  const model = interpolateAll(raw, env, errors, warnings) as Record<string, unknown>
  const validate = composeSchema()
  if (!validate(model)) {
    for (const error of validate.errors ?? []) errors.push(`${error.instancePath || '(top)'} ${error.message}`)
  }
  const config = Object.fromEntries(
    Object.entries(model).filter(([key]) => !key.startsWith('x-')),
  ) as ComposeResult['config']
  for (const service of Object.values(config.services ?? {})) {
    if (Array.isArray(service.volumes)) {
      service.volumes = service.volumes.map((v: unknown) => resolveBindMount(v, projectDir))
    }
  }
  for (const secret of Object.values(config.secrets ?? {})) {
    if (typeof secret?.file === 'string' && secret.file !== '' && !isAbsolute(secret.file)) {
      secret.file = resolve(projectDir, secret.file)
    }
  }
  return { config, errors, warnings }
}
