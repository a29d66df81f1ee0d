#!/usr/bin/env node
// Fails when any package or app imports itself in a circle. Type-only imports
// count too: a cycle of types is still a knot a reader has to untie.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import madge from 'madge'

const root = new URL('../..', import.meta.url).pathname
// Folders holding a src/ and a tsconfig.json: the ones named, or every package and app.
const named = process.argv.slice(2)
const sources = (
  named.length > 0
    ? named
    : ['packages', 'apps'].flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
).filter((dir) => existsSync(join(dir, 'src')))

let cycles = 0
for (const dir of sources) {
  const graph = await madge(join(dir, 'src'), {
    fileExtensions: ['ts'],
    tsConfig: join(dir, 'tsconfig.json'),
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  })
  for (const cycle of graph.circular()) {
    cycles += 1
    console.error(`${dir.startsWith(root) ? dir.slice(root.length) : dir}: ${[...cycle, cycle[0]].join(' -> ')}`)
  }
}
if (cycles > 0) {
  console.error(`${cycles} import cycle(s); move the shared piece into a file of its own.`)
  process.exit(1)
}
console.log(`no import cycles in ${sources.length} packages and apps`)
