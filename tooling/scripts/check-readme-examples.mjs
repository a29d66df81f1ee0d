#!/usr/bin/env node
// Every TypeScript/JavaScript example of README.md, docs/*.md, packages/*/README.md and apps/*/README.md,
// completed as its README says (tooling/scripts/readme-examples.mjs has the grammar), is
// type-checked (strict) and run in a fresh project that installs the packed tarballs with npm, as
// a user would, beside what the READMEs' Install sections add (and fastify, typebox). An example
// that imports a package its README's Install section does not list fails too. Run from the root
// after `turbo run build`; it reuses the tarballs check-package.mjs left in
// node_modules/.cache/weft-pack (or packs them itself). `pnpm lint` runs it after check-package.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { assemble, extractExamples, importsOf, installOf, packageName } from './readme-examples.mjs'

const root = new URL('../../', import.meta.url).pathname
const tsc = join(root, 'node_modules/.bin/tsc')
const packCache = join(root, 'node_modules/.cache/weft-pack')
const libraries = ['context', 'binding', 'pagination']
const started = Date.now()
const problems = []
const run = (command, args, options = {}) =>
  execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options })

const readmes = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...['packages', 'apps'].flatMap((dir) =>
    readdirSync(join(root, dir))
      .map((name) => `${dir}/${name}/README.md`)
      .filter((file) => existsSync(join(root, file))),
  ),
]
const examples = []
const installs = new Set(['fastify@5', 'typebox@1', '@types/node@^20.19.0'])
for (const file of readmes) {
  const markdown = readFileSync(join(root, file), 'utf8')
  const found = extractExamples(markdown, file)
  const listed = installOf(markdown)
  for (const name of listed) if (!name.startsWith('@weft/')) installs.add(name)
  for (const example of found) {
    for (const name of example.options.install) if (!name.startsWith('@weft/')) installs.add(name)
    // what a reader copies must be installable from the README: its imports are in Install
    for (const specifier of importsOf(example.code)) {
      const name = packageName(specifier)
      if (name === undefined || builtinModules.includes(name)) continue
      if (!listed.includes(name) && !example.options.install.includes(name)) {
        problems.push(
          `${file}:${example.line}: the example imports ${specifier}, which the Install section does not add`,
        )
      }
    }
  }
  examples.push(...found)
}

const work = mkdtempSync(join(tmpdir(), 'weft-readme-'))
try {
  const project = join(work, 'project')
  mkdirSync(join(project, 'examples'), { recursive: true })
  writeFileSync(
    join(project, 'package.json'),
    '{ "name": "weft-readme-examples", "private": true, "type": "module" }\n',
  )
  writeFileSync(
    join(project, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          module: 'nodenext',
          target: 'ES2022',
          lib: ['ES2022'],
          strict: true,
          skipLibCheck: true,
          types: ['node'],
          allowJs: true,
          checkJs: true,
        },
        include: ['examples'],
      },
      null,
      2,
    )}\n`,
  )
  const npmArgs = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock']
  run('npm', [...npmArgs, ...tarballs(join(work, 'tarballs')), ...installs], { cwd: project })
  const programs = examples.map((example, i) => {
    const { source, origins } = assemble(examples, i)
    const slug = example.file.replace(/\/README\.md$|\.md$/, '').replace(/[^\w]+/g, '-')
    const name = `${slug}-${example.line}.${example.lang.startsWith('j') ? 'js' : 'ts'}`
    writeFileSync(join(project, 'examples', name), source)
    return { example, name, origins }
  })
  const compiled = spawnSync(tsc, ['-p', '.'], { cwd: project, encoding: 'utf8' })
  if (compiled.status !== 0) {
    // examples/x.ts(12,5): error ... → the README line it came from
    const byName = new Map(programs.map((p) => [p.name, p]))
    const message = `${compiled.stdout}${compiled.stderr}`.replace(
      /(?:[^\s(]*\/)?examples\/([^(\s]+)\((\d+),(\d+)\)/g,
      (all, name, line) => `${byName.get(name)?.origins[Number(line) - 1] ?? all} (${all})`,
    )
    problems.push(`the examples do not type-check:\n${message}`)
  } else {
    for (const { example, name } of programs) {
      const file = join(project, 'examples', name.replace(/\.ts$/, '.js'))
      const result = spawnSync(process.execPath, [file], { cwd: project, encoding: 'utf8', timeout: 30_000 })
      if (result.status !== 0) {
        const why = result.error?.code === 'ETIMEDOUT' ? 'did not end within 30 s (close what it opens)' : 'failed'
        problems.push(`${example.file}:${example.line}: the example ${why}\n${result.stdout}${result.stderr}`)
      }
    }
  }
} catch (error) {
  problems.push(`${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
if (problems.length > 0) {
  console.error(`README examples:\n- ${problems.join('\n- ')}`)
  process.exit(1)
}
const seconds = ((Date.now() - started) / 1000).toFixed(1)
console.log(`README examples: ${examples.length} type-checked and run from the packed tarballs (${seconds} s).`)

function mtimeOf(file) {
  return existsSync(file) ? statSync(file).mtimeMs : Number.POSITIVE_INFINITY
}

/** The tarballs check-package.mjs packed, or new ones packed into `into`. */
function tarballs(into) {
  const cached = existsSync(packCache) ? readdirSync(packCache).filter((f) => f.endsWith('.tgz')) : []
  // only tarballs packed after the last build
  const built = Math.max(...libraries.map((name) => mtimeOf(join(root, 'packages', name, 'publish/package.json'))))
  if (cached.length === libraries.length && cached.every((f) => mtimeOf(join(packCache, f)) >= built)) {
    return cached.map((f) => join(packCache, f))
  }
  mkdirSync(into, { recursive: true })
  for (const name of libraries) run('pnpm', ['pack', '--pack-destination', into], { cwd: join(root, 'packages', name) })
  return readdirSync(into).map((f) => join(into, f))
}
