import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const sourceDir = fileURLToPath(new URL('../servers/', import.meta.url))
const outDir = fileURLToPath(new URL('../../.tmp/servers/', import.meta.url))
const root = fileURLToPath(new URL('../../../', import.meta.url))

/** What the compiled servers import, as users get it: the built packages and API A's build. */
const builtEntryPoints = [
  'packages/context/dist/index.js',
  'packages/binding/dist/index.js',
  'packages/pagination/dist/index.js',
  'apps/api-a/dist/app.js',
]

/**
 * Compiles the benchmark servers (`src/servers/*.ts`) to plain JavaScript in `bench/.tmp/servers/` and
 * returns that folder. The servers then run on plain `node` against the built packages, as users run
 * Weft, instead of through tsx: under the tsx loader, a Fastify route with any hook cost 3-4 µs more
 * per request than one without in most processes (bare Fastify with a no-op hook included), which
 * measured the loader, not Weft. API A's sources are imported from its build (`dist/`).
 */
export function compileServers(): string {
  const missing = builtEntryPoints.filter((file) => !existsSync(`${root}${file}`))
  if (missing.length > 0) {
    throw new Error(`the HTTP benchmarks run the built code; run \`pnpm build\` first (missing ${missing.join(', ')})`)
  }
  mkdirSync(outDir, { recursive: true })
  for (const file of readdirSync(sourceDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
    const { outputText } = ts.transpileModule(readFileSync(`${sourceDir}${file}`, 'utf8'), {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
      fileName: file,
    })
    writeFileSync(`${outDir}${file.replace(/\.ts$/, '.js')}`, toBuiltImports(outputText))
  }
  return outDir
}

/** `@weft/api-a/src/db/client.ts` → `@weft/api-a/dist/db/client.js`. */
function toBuiltImports(code: string): string {
  return code.replace(/(['"])@weft\/api-a\/src\/([^'"]+)\.ts\1/g, '$1@weft/api-a/dist/$2.js$1')
}
