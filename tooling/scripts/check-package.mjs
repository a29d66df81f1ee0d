#!/usr/bin/env node
// Packs the library in the current directory exactly as `pnpm publish` would and checks the
// tarball with publint and @arethetypeswrong/cli. Run from a package folder (`pnpm lint:package`).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const toolingBin = new URL('../node_modules/.bin/', import.meta.url).pathname
const bin = (name) => join(toolingBin, name)
const out = mkdtempSync(join(tmpdir(), 'weft-pack-'))
try {
  execFileSync('pnpm', ['pack', '--pack-destination', out], { stdio: ['ignore', 'ignore', 'inherit'] })
  const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'))
  if (!tarball) throw new Error('pnpm pack produced no tarball')
  const file = join(out, tarball)
  execFileSync(bin('publint'), ['run', file, '--strict'], { stdio: 'inherit' })
  execFileSync(bin('attw'), [file, '--profile', 'esm-only'], { stdio: 'inherit' })
} finally {
  rmSync(out, { recursive: true, force: true })
}
