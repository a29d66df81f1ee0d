import { describe, expect, it } from 'vitest'
import { assemble, extractExamples, importsOf, installOf, mergeImports } from './readme-examples.mjs'

const fence = '```'

const readme = [
  '# pkg',
  '',
  '## Install',
  '',
  `${fence}sh`,
  'pnpm add @weft/pagination fastify',
  'pnpm add drizzle-orm@^0.45   # optional',
  fence,
  '',
  '## Usage',
  '',
  `${fence}ts`,
  "import Fastify from 'fastify'",
  'const app = Fastify()',
  fence,
  '',
  '<!-- example: continues install=yaml',
  "import { Type } from 'typebox'",
  "app.get('/x', async (request) => {",
  '  <example>',
  '})',
  "assert.equal((await app.inject('/x')).body, 'ok')",
  '-->',
  '',
  `${fence}typescript`,
  "import Fastify, { type FastifyInstance } from 'fastify'",
  "return 'ok'",
  fence,
  '',
  '- a list item:',
  '',
  '  <!-- example: prelude=fastify-app -->',
  `  ${fence}js`,
  '  app.get("/y", () => 1)',
  `  ${fence}`,
  '',
  `${fence}json`,
  '{ "not": "run" }',
  fence,
].join('\n')

describe('extractExamples', () => {
  const examples = extractExamples(readme, 'packages/x/README.md')

  it('finds the ts, typescript and js blocks, not sh or json, with the line of their first code line', () => {
    expect(examples.map((e: { lang: string; line: number }) => [e.lang, e.line])).toEqual([
      ['ts', 13],
      ['typescript', 26],
      ['js', 34],
    ])
    expect(examples[0].code).toBe("import Fastify from 'fastify'\nconst app = Fastify()\n")
  })

  it("reads the comment's options and splits its code at <example>", () => {
    expect(examples[1].options).toEqual({ prelude: [], install: ['yaml'], continues: true, copyOf: undefined })
    expect(examples[1].template.before).toBe("import { Type } from 'typebox'\napp.get('/x', async (request) => {\n")
    expect(examples[1].template.after).toBe("})\nassert.equal((await app.inject('/x')).body, 'ok')\n")
    expect(examples[0].options.continues).toBe(false)
  })

  it('strips the indentation of a block inside a list item, and reads a one-line comment', () => {
    expect(examples[2].code).toBe('app.get("/y", () => 1)\n')
    expect(examples[2].options.prelude).toEqual(['fastify-app'])
  })

  it('forgets a comment that is not right before a block', () => {
    const text = `<!-- example: install=yaml -->\n\nSome words.\n\n${fence}ts\nx\n${fence}\n`
    expect(extractExamples(text)[0].options.install).toEqual([])
  })

  it('names a copied file, and refuses unknown options, unknown preludes and comments before shell blocks', () => {
    const copy = `<!-- example: examples/drizzle-products.ts -->\n${fence}ts\nx\n${fence}\n`
    expect(extractExamples(copy)[0].options.copyOf).toBe('examples/drizzle-products.ts')
    expect(() => extractExamples(`<!-- example: skip -->\n${fence}ts\nx\n${fence}\n`)).toThrow(
      /unknown example option "skip"/,
    )
    expect(() => extractExamples(`<!-- example: prelude=nope -->\n${fence}ts\nx\n${fence}\n`)).toThrow(/no prelude/)
    expect(() => extractExamples(`<!-- example: -->\n${fence}sh\nls\n${fence}\n`)).toThrow(/not run/)
    expect(() => extractExamples(`${fence}ts\nnever closed\n`)).toThrow(/never closes/)
  })
})

describe('assemble', () => {
  const examples = extractExamples(readme, 'packages/x/README.md')

  it('puts the previous example, the template and the block together, imports merged at the top', () => {
    const { source, origins } = assemble(examples, 1)
    const lines = source.split('\n')
    expect(lines.slice(0, 4)).toEqual([
      "import assert from 'node:assert/strict'",
      "import Fastify, { type FastifyInstance } from 'fastify'",
      "import { Type } from 'typebox'",
      'export {}',
    ])
    // each moved import line stays as a blank line, so that line numbers still match
    expect(source).toContain("const app = Fastify()\n\napp.get('/x', async (request) => {\n\nreturn 'ok'\n})\nassert")
    // every line of the source says where it came from
    expect(lines.length - 1).toBe(origins.length)
    expect(origins[lines.indexOf("return 'ok'")]).toBe('packages/x/README.md:27')
    expect(origins[lines.indexOf('const app = Fastify()')]).toBe('packages/x/README.md:14')
    expect(origins[lines.indexOf('})')]).toBe('packages/x/README.md:21')
  })

  it('adds named preludes', () => {
    const { source, origins } = assemble(examples, 2)
    expect(source).toContain("import Fastify from 'fastify'\nimport { Type } from 'typebox'\n")
    expect(source).toContain('const app = Fastify()\napp.get("/y", () => 1)\n')
    expect(origins).toContain('prelude fastify-app')
  })
})

describe('the Install section and imports', () => {
  it('lists the packages of pnpm add lines, versions and comments dropped', () => {
    expect(installOf(readme)).toEqual(['@weft/pagination', 'fastify', 'drizzle-orm'])
    expect(installOf('# no install section\n')).toEqual([])
  })

  it('finds the specifiers of one-line and multi-line imports', () => {
    const code =
      "import a from 'a'\nimport {\n  b,\n  c,\n} from '@s/b/sub'\nimport 'side'\nconst x = import('dynamic')\n"
    expect(importsOf(code)).toEqual(['a', '@s/b/sub', 'side'])
  })

  it('merges imports of one module into one statement, type-only names kept as such', () => {
    expect(
      mergeImports([
        "import { a, type T } from 'm'",
        "import type { U } from 'm'",
        "import { a } from 'm'",
        "import D from 'm'",
        "import * as ns from 'n'",
        "import 'side'",
        "import type { T } from 'm'",
      ]),
    ).toEqual(["import 'side'", "import D, { a, type T, type U } from 'm'", "import * as ns from 'n'"])
  })
})
