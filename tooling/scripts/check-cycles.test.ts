import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const script = new URL('./check-cycles.mjs', import.meta.url).pathname
const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'weft-cycles-'))
  folders.push(dir)
  mkdirSync(join(dir, 'src'))
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext' } }))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'src', name), text)
  return dir
}

function run(dir: string): { code: number; output: string } {
  try {
    const output = execFileSync(process.execPath, [script, dir], { encoding: 'utf8', stdio: 'pipe' })
    return { code: 0, output }
  } catch (error) {
    const failed = error as { status: number; stderr: string }
    return { code: failed.status, output: failed.stderr }
  }
}

describe('check-cycles', () => {
  it('fails on a cycle made only of type imports, naming the files', () => {
    const dir = project({
      'a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
      'b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
    })
    const result = run(dir)
    expect(result.code).toBe(1)
    expect(result.output).toContain('a.ts -> b.ts -> a.ts')
  })

  it('passes a project whose imports only go one way', () => {
    const dir = project({
      'a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
      'b.ts': 'export type B = { n: number };\n',
    })
    expect(run(dir)).toEqual({ code: 0, output: 'no import cycles in 1 packages and apps\n' })
  })
})
