import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const packageDir = fileURLToPath(new URL('..', import.meta.url))

/** The compiler options the package is built with (tsconfig.build.json, its `extends` resolved). */
function buildOptions(): ts.CompilerOptions {
  const path = `${packageDir}tsconfig.build.json`
  const { config } = ts.readConfigFile(path, ts.sys.readFile)
  return ts.parseJsonConfigFileContent(config, ts.sys, packageDir, undefined, path).options
}

/** The members of the classes a file's published .d.ts declares. */
function declaredMembers(file: string): string[] {
  const source = readFileSync(`${packageDir}src/${file}`, 'utf8')
  const { outputText } = ts.transpileDeclaration(source, { fileName: file, compilerOptions: buildOptions() })
  const dts = ts.createSourceFile(file.replace(/\.ts$/, '.d.ts'), outputText, ts.ScriptTarget.Latest)
  const members: string[] = []
  dts.forEachChild((node) => {
    if (!ts.isClassDeclaration(node)) return
    for (const member of node.members) if (member.name !== undefined) members.push(member.name.getText(dts))
  })
  return members
}

describe('the published types of Ctx', () => {
  it.each(['ctx-base.ts', 'ctx-request.ts', 'ctx-response.ts', 'ctx.ts'])(
    '%s declares no _-prefixed internals (nothing for autocompletion to offer)',
    (file) => {
      const members = declaredMembers(file)
      expect(members.length).toBeGreaterThan(0)
      expect(members.filter((name) => name.startsWith('_') || name === 'setBody' || name === 'appendChunk')).toEqual([])
    },
  )
})
