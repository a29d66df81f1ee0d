#!/usr/bin/env node
// Lays out what a library publishes in `publish/` (its `publishConfig.directory`), after `tsc` has
// built `dist/`, so that `pnpm pack` and `pnpm publish` ship exactly what a user needs:
// - package.json without workspace-only fields (scripts, devDependencies, the `@weft/source`
//   condition, publishConfig.directory), with repository, homepage and bugs;
// - CommonJS entry points for Node ≥ 20.19 / ≥ 22.12, which can require() ES modules: each
//   `<entry>.cjs` requires the ES module itself (one copy of the code, so `instanceof` and the
//   plugins' state are the same whichever way an app loads it), and its types are the declarations
//   as CommonJS files (`.d.cts`), for TypeScript projects that compile to CommonJS;
// - the root LICENSE, README.md and CHANGELOG.md.
// Run from a package folder, as the last step of its `build` script.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'

const root = new URL('../../', import.meta.url).pathname
const manifest = JSON.parse(readFileSync('package.json', 'utf8'))
const out = manifest.publishConfig?.directory
if (out !== 'publish') throw new Error(`${manifest.name}: publishConfig.directory must be "publish"`)
const repository = 'https://github.com/weft-dev/weft'
const folder = relative(root, process.cwd())

rmSync(out, { recursive: true, force: true })
mkdirSync(out)
// source maps are not built (tsconfig.build.json), so none can point at sources left out
cpSync('dist', join(out, 'dist'), { recursive: true, filter: (path) => !/\.(test|test-d)\.|\.map$/.test(path) })
for (const file of ['README.md', 'CHANGELOG.md']) if (existsSync(file)) cpSync(file, join(out, file))
cpSync(join(root, 'LICENSE'), join(out, 'LICENSE'))

/** Every file under `dir`. */
function filesOf(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

/** Whether package `name` (as installed for this package) is an ES module with no CommonJS entry. */
function isEsmOnly(name) {
  for (let dir = process.cwd(); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json')
    if (!existsSync(file)) continue
    const pkg = JSON.parse(readFileSync(file, 'utf8'))
    return pkg.type === 'module' && !JSON.stringify(pkg.exports ?? {}).includes('"require"')
  }
  throw new Error(`${manifest.name}: cannot find ${name} to tell its module format`)
}

/**
 * A declaration file as CommonJS: relative specifiers name the `.cjs` files; an ES-module-only
 * package (typebox) is imported for its types with `resolution-mode: import` (TypeScript >= 5.3),
 * and a CommonJS `export =` module's default import becomes `import x = require()`.
 */
function asCommonJs(text) {
  return text
    .replace(/(from |import\()(['"])(\.{1,2}\/[^'"]*)\.js\2/g, '$1$2$3.cjs$2')
    .replace(/^import (type )?(.+) from '((?:@[^/']+\/)?[^./'][^']*)';$/gm, (line, _type, names, specifier) => {
      if (specifier.startsWith('node:') || specifier.startsWith('@weft/')) return line
      const name = specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/')
      if (isEsmOnly(name)) {
        return `import type ${names.replace(/\btype /g, '')} from '${specifier}' with { 'resolution-mode': 'import' };`
      }
      return /^\w+$/.test(names) ? `import ${names} = require('${specifier}');` : line
    })
}

/**
 * A CommonJS declaration file cannot augment an ES-module-only package (`declare module 'typebox'`
 * is TS1479 there): such blocks move to `<file>.augment.d.mts`, an ES module declaration file that
 * the `.d.cts` includes with a reference, importing the file's exported names the block uses.
 */
function moveEsmAugmentations(text, file) {
  const blocks = []
  const rest = text.replace(/^declare module '([^']+)' \{\n[\s\S]*?^\}\n/gm, (block, specifier) => {
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]
    if (specifier.startsWith('.') || !isEsmOnly(name)) return block
    blocks.push(block)
    return ''
  })
  if (blocks.length === 0) return text
  const exported = [
    ...text.matchAll(/^export (?:declare )?(?:type|interface|class|const|function|enum|abstract class) (\w+)/gm),
  ].map((m) => m[1])
  const used = exported.filter((name) => blocks.some((block) => new RegExp(`\\b${name}\\b`).test(block)))
  const base = basename(file, '.d.ts')
  const imports = used.length > 0 ? `import type { ${used.join(', ')} } from './${base}.js';\n` : ''
  writeFileSync(join(dirname(file), `${base}.augment.d.mts`), `${imports}${blocks.join('')}export {};\n`)
  return `/// <reference path="./${base}.augment.d.mts" />\n${rest}`
}

// `.d.cts` next to each `.d.ts`: the same declarations, for the `.cjs` entry points
for (const file of filesOf(join(out, 'dist')).filter((f) => f.endsWith('.d.ts'))) {
  const text = moveEsmAugmentations(readFileSync(file, 'utf8'), file)
  writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), asCommonJs(text))
}

const exports = {}
const typesVersions = {}
for (const [subpath, target] of Object.entries(manifest.publishConfig.exports)) {
  if (typeof target === 'string') {
    exports[subpath] = target
    continue
  }
  const esm = target.default
  const cjs = esm.replace(/\.js$/, '.cjs')
  const cjsTypes = target.types.replace(/\.d\.ts$/, '.d.cts')
  writeFileSync(
    join(out, cjs),
    `'use strict'\n// Node >= 20.19 / >= 22.12 require() the ES module: one copy of the code for import and require\nmodule.exports = require('./${relative(dirname(cjs), esm)}')\n`,
  )
  exports[subpath] = {
    import: { types: target.types, default: esm },
    require: { types: cjsTypes, default: cjs },
  }
  // TypeScript's `moduleResolution: node10` reads no `exports`: it finds subpaths' types here
  if (subpath !== '.') typesVersions[subpath.slice(2)] = [cjsTypes]
}

/** A dependency as published: `workspace:^` becomes the range of that package's current version. */
function publishedRange(name, range) {
  if (!range.startsWith('workspace:')) return range
  const dir = readdirSync(join(root, 'packages')).find(
    (d) => JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8')).name === name,
  )
  if (dir === undefined) throw new Error(`${manifest.name}: no workspace package ${name}`)
  const { version } = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'))
  const kind = range.slice('workspace:'.length)
  return kind === '*' ? version : `${kind}${version}`
}
const dependencies = Object.fromEntries(
  Object.entries(manifest.dependencies ?? {}).map(([name, range]) => [name, publishedRange(name, range)]),
)

const main = exports['.']
const published = {
  name: manifest.name,
  version: manifest.version,
  description: manifest.description,
  keywords: manifest.keywords,
  license: manifest.license,
  repository: { type: 'git', url: `git+${repository}.git`, directory: folder },
  homepage: `${repository}/tree/main/${folder}#readme`,
  bugs: { url: `${repository}/issues` },
  type: manifest.type,
  sideEffects: manifest.sideEffects,
  engines: manifest.engines,
  main: main.require.default,
  types: main.require.types,
  exports,
  ...(Object.keys(typesVersions).length > 0 ? { typesVersions: { '*': typesVersions } } : {}),
  files: ['dist', 'CHANGELOG.md'],
  publishConfig: { access: manifest.publishConfig.access },
  peerDependencies: manifest.peerDependencies,
  peerDependenciesMeta: manifest.peerDependenciesMeta,
  dependencies,
}
writeFileSync(join(out, 'package.json'), `${JSON.stringify(published, null, 2)}\n`)
