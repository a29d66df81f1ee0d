#!/usr/bin/env node
// Packs each library exactly as `pnpm publish` would (from its built `publish/` folder) and checks
// what a user gets: LICENSE, README and CHANGELOG; repository, homepage and bugs; no scripts or
// devDependencies; no source map without the sources it names; publint --strict;
// arethetypeswrong's default profile (ESM and CommonJS, node10 included). Then it installs the
// tarballs with npm into a fresh project, beside fastify, typebox and fast-xml-parser, and
// compiles and runs the apps of tooling/package-consumers (ESM, CommonJS node16, CommonJS
// node10). The tarballs are left in node_modules/.cache/weft-pack for check-readme-examples.mjs.
// Run from the root after `turbo run build` (`pnpm lint` does both).
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'

const root = new URL('../../', import.meta.url).pathname
const toolingBin = join(root, 'tooling/node_modules/.bin')
const tsc = join(root, 'node_modules/.bin/tsc')
const packCache = join(root, 'node_modules/.cache/weft-pack')
const packages = ['context', 'binding', 'pagination'].map((name) => join(root, 'packages', name))
const problems = []
const run = (command, args, options = {}) =>
  execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options })

const work = mkdtempSync(join(tmpdir(), 'weft-pack-'))
try {
  const tarballs = packages.map((dir) => checkTarball(dir, join(work, 'tarballs')))
  checkConsumers(tarballs, join(work, 'app'))
  // kept for check-readme-examples.mjs, which installs the same tarballs
  rmSync(packCache, { recursive: true, force: true })
  mkdirSync(packCache, { recursive: true })
  for (const tarball of tarballs) cpSync(tarball, join(packCache, basename(tarball)))
} finally {
  rmSync(work, { recursive: true, force: true })
}
if (problems.length > 0) {
  console.error(`Package check failed:\n- ${problems.join('\n- ')}`)
  process.exit(1)
}
console.log('Packages: tarballs, publint, arethetypeswrong and the ESM/CommonJS consumers are fine.')

/** Packs the package in `dir` into `into`, checks the tarball and returns its path. */
function checkTarball(dir, into) {
  mkdirSync(into, { recursive: true })
  const before = new Set(readdirSync(into))
  run('pnpm', ['pack', '--pack-destination', into], { cwd: dir })
  const name = readdirSync(into).find((file) => file.endsWith('.tgz') && !before.has(file))
  if (name === undefined) throw new Error(`pnpm pack produced no tarball in ${dir}`)
  const tarball = join(into, name)
  const unpacked = join(into, name.replace(/\.tgz$/, ''))
  mkdirSync(unpacked)
  run('tar', ['xzf', tarball, '-C', unpacked])
  const pkg = join(unpacked, 'package')
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'))
  const where = manifest.name
  // CHANGELOG.md exists once `changeset version` has written the first release's notes
  const shipped = existsSync(join(dir, 'CHANGELOG.md'))
    ? ['LICENSE', 'README.md', 'CHANGELOG.md']
    : ['LICENSE', 'README.md']
  for (const file of shipped) {
    if (!existsSync(join(pkg, file))) problems.push(`${where}: the tarball has no ${file}`)
  }
  if (manifest.repository?.directory === undefined) problems.push(`${where}: no repository.directory`)
  for (const field of ['homepage', 'bugs', 'license']) {
    if (manifest[field] === undefined) problems.push(`${where}: no ${field}`)
  }
  for (const field of ['scripts', 'devDependencies', 'packageManager', 'pnpm', 'workspaces']) {
    if (manifest[field] !== undefined) problems.push(`${where}: the packed package.json has ${field}`)
  }
  if (JSON.stringify(manifest).includes('workspace:')) problems.push(`${where}: a workspace: range is published`)
  if (JSON.stringify(manifest.exports).includes('@weft/source')) problems.push(`${where}: exports name src/`)
  checkSourceMaps(pkg, where)
  try {
    run(join(toolingBin, 'publint'), ['run', tarball, '--strict'])
  } catch (error) {
    problems.push(`${where}: publint --strict\n${error.stdout}${error.stderr}`)
  }
  try {
    run(join(toolingBin, 'attw'), [tarball, '--format', 'ascii'])
  } catch (error) {
    problems.push(`${where}: arethetypeswrong\n${error.stdout}${error.stderr}`)
  }
  return tarball
}

/** Every source map in the package must name sources that ship with it. */
function checkSourceMaps(pkg, where) {
  const files = readdirSync(pkg, { recursive: true }).map(String)
  for (const map of files.filter((file) => file.endsWith('.map'))) {
    const { sources = [], sourceRoot = '' } = JSON.parse(readFileSync(join(pkg, map), 'utf8'))
    for (const source of sources) {
      if (!existsSync(join(pkg, dirname(map), sourceRoot, source))) {
        problems.push(`${where}: ${map} names ${source}, which is not in the tarball`)
      }
    }
  }
}

/** Installs the tarballs into a fresh project and compiles and runs each consumer app there. */
function checkConsumers(tarballs, app) {
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), '{ "name": "weft-consumer", "private": true }\n')
  const types = '@types/node@^20.19.0'
  const npmArgs = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock']
  try {
    run('npm', [...npmArgs, ...tarballs, 'fastify@5', 'typebox@1', 'fast-xml-parser@5', types], { cwd: app })
  } catch (error) {
    problems.push(`npm install of the tarballs failed\n${error.stderr}`)
    return
  }
  cpSync(join(root, 'tooling/package-consumers'), app, { recursive: true })
  const expected = '200 {"item":{"id":7,"name":"Ada"},"page":2}'
  for (const [kind, main] of [
    ['esm', 'main.js'],
    ['cjs', 'main.cjs'],
    ['node10', 'main.js'],
  ]) {
    const dir = join(app, kind)
    try {
      run(tsc, ['-p', dir])
      const out = run(process.execPath, [join(dir, main)], { cwd: dir }).trim()
      if (out !== expected) problems.push(`the ${kind} consumer printed ${out}, not ${expected}`)
    } catch (error) {
      problems.push(`the ${kind} consumer failed\n${error.stdout ?? ''}${error.stderr ?? ''}`)
    }
  }
}
