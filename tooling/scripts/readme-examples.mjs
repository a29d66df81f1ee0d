// Reads the TypeScript and JavaScript examples of a README and completes each into a program, for
// tooling/scripts/check-readme-examples.mjs. The grammar, for README authors:
//
// - Every fenced block tagged ts, typescript, js or javascript is an example; other blocks (sh,
//   json, plain) are not run.
// - An HTML comment right before a block (blank lines may separate them) completes it; readers of
//   the rendered README do not see it:
//
//     <!-- example: prelude=fastify-app install=yaml continues
//     const Search = Type.Object({ q: Type.String() })
//     app.get('/search', async (request) => {
//       <example>
//     })
//     const res = await app.inject('/search?q=x')
//     assert.equal(res.statusCode, 200)
//     -->
//
//   Options on its first line: `prelude=a,b` adds named preludes (below) before the example;
//   `continues` puts the previous example of the same README first (its preludes and code, not the
//   code after its `<example>` line); `install=pkg,pkg` names packages the example needs beyond the
//   README's Install section; a bare path (`examples/drizzle-products.ts`) names a file the block is
//   a copy of (a test of that package compares the two). The lines after the first are code: the
//   block goes where a line reads `<example>`, or after all of them when none does. Code after the
//   block is where a check goes: `assert` (node:assert/strict) is imported in every example.
// - Import declarations anywhere in the parts are moved to the top and merged, so a prelude and the
//   block may import the same names.

/** Fence languages that are examples. */
export const EXAMPLE_LANGUAGES = new Set(['ts', 'typescript', 'js', 'javascript'])

/** Named preludes: code put before an example with `prelude=name`. */
export const PRELUDES = {
  'fastify-app': "import Fastify from 'fastify'\nimport { Type } from 'typebox'\nconst app = Fastify()\n",
}

const OPEN = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/

/**
 * The examples of a markdown text: `{ file, line, lang, code, options, template }`, where `line` is
 * the 1-based line of the block's first code line and `template` is `{ before, after, line }` from
 * the comment before the block (empty strings without one).
 */
export function extractExamples(markdown, file = 'README.md') {
  const lines = markdown.split('\n')
  const examples = []
  let pending
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const trimmed = line.trim()
    if (trimmed.startsWith('<!-- example')) {
      const start = i
      while (!lines[i].includes('-->')) {
        i++
        if (i >= lines.length) throw new Error(`${file}:${start + 1}: an example comment without its -->`)
      }
      pending = parseComment(lines.slice(start, i + 1), file, start)
      continue
    }
    const open = OPEN.exec(line)
    if (open !== null) {
      const [, indent, fence, lang] = open
      const body = []
      let j = i + 1
      for (; j < lines.length; j++) {
        const close = lines[j].trim()
        if (close.startsWith(fence[0].repeat(fence.length)) && /^[`~]+$/.test(close)) break
        body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart())
      }
      if (j >= lines.length) throw new Error(`${file}:${i + 1}: a code block that never closes`)
      const language = lang.toLowerCase()
      if (EXAMPLE_LANGUAGES.has(language)) {
        examples.push({
          file,
          line: i + 2,
          lang: language,
          code: `${body.join('\n')}\n`,
          options: pending?.options ?? { prelude: [], install: [], continues: false, copyOf: undefined },
          template: pending?.template ?? { before: '', after: '', line: 0, afterLine: 0 },
        })
      } else if (pending !== undefined) {
        throw new Error(`${file}:${i + 1}: an example comment before a ${lang || 'plain'} block, which is not run`)
      }
      pending = undefined
      i = j
      continue
    }
    if (trimmed !== '') pending = undefined
  }
  return examples
}

function parseComment(commentLines, file, start) {
  const first = commentLines[0].trim().replace(/^<!-- example:?/, '')
  const single = commentLines.length === 1
  const optionText = single ? first.replace(/-->\s*$/, '') : first
  const options = { prelude: [], install: [], continues: false, copyOf: undefined }
  for (const token of optionText.trim().split(/\s+/).filter(Boolean)) {
    const [key, value] = token.includes('=') ? token.split('=', 2) : [token, undefined]
    if (key === 'prelude' && value) options.prelude.push(...value.split(',').filter(Boolean))
    else if (key === 'install' && value) options.install.push(...value.split(',').filter(Boolean))
    else if (key === 'continues' && value === undefined) options.continues = true
    else if (value === undefined && /[./]/.test(key)) options.copyOf = key
    else throw new Error(`${file}:${start + 1}: unknown example option "${token}"`)
  }
  for (const name of options.prelude) {
    if (!(name in PRELUDES)) throw new Error(`${file}:${start + 1}: no prelude named "${name}"`)
  }
  const code = single ? [] : commentLines.slice(1)
  if (code.length > 0) code[code.length - 1] = code[code.length - 1].replace(/-->\s*$/, '')
  if (code.length > 0 && code[code.length - 1].trim() === '') code.pop()
  const at = code.findIndex((l) => l.trim() === '<example>')
  const before = at === -1 ? code : code.slice(0, at)
  const after = at === -1 ? [] : code.slice(at + 1)
  return {
    options,
    template: {
      before: before.length > 0 ? `${before.join('\n')}\n` : '',
      after: after.join('\n').trim() === '' ? '' : `${after.join('\n')}\n`,
      line: start + 2,
      afterLine: start + 2 + (at === -1 ? code.length : at + 1),
    },
  }
}

/** The packages a README's Install section adds (`pnpm add a b`, `npm install a`), versions dropped. */
export function installOf(markdown) {
  const section = /^## Install\b[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown)?.[1] ?? ''
  const names = new Set()
  for (const line of section.split('\n')) {
    const command = /^\s*(?:pnpm add|npm install|npm i|yarn add)\s+([^#]*)/.exec(line)
    if (command === null) continue
    for (const word of command[1].trim().split(/\s+/)) {
      if (word === '' || word.startsWith('-')) continue
      names.add(packageName(word.replace(/(.)@[^/@]*$/, '$1')))
    }
  }
  return [...names]
}

/** The package of an import specifier (`@a/b/c` → `@a/b`, `x/y` → `x`); undefined for `node:`/relative. */
export function packageName(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined
  const parts = specifier.split('/')
  return parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/')
}

const IMPORT = /^[ \t]*import\s(?:[^'"`;]*?\sfrom\s*)?['"]([^'"]+)['"];?[ \t]*$/gm

/** The specifiers a piece of code imports. */
export function importsOf(code) {
  return [...code.matchAll(IMPORT)].map((m) => m[1])
}

/**
 * One example as a program: `{ source, origins }`, where `origins[i]` tells where line `i + 1` of
 * the source comes from (`packages/x/README.md:12`, or `prelude fastify-app`).
 */
export function assemble(examples, index) {
  const parts = []
  collect(examples, index, parts, true)
  const bodyLines = []
  const origins = []
  const imports = []
  for (const { text, origin } of parts) {
    const withoutImports = text.replace(IMPORT, (statement) => {
      imports.push(statement)
      return statement.replace(/[^\n]/g, '')
    })
    const lines = withoutImports.replace(/\n$/, '').split('\n')
    lines.forEach((line, i) => {
      bodyLines.push(line)
      origins.push(origin(i))
    })
  }
  const head = mergeImports(["import assert from 'node:assert/strict'", ...imports])
  const headOrigins = head.map(() => 'the merged imports')
  return {
    source: `${[...head, 'export {}', ...bodyLines].join('\n')}\n`,
    origins: [...headOrigins, 'the merged imports', ...origins],
  }
}

function collect(examples, index, parts, withAfter) {
  const example = examples[index]
  const { file, options, template } = example
  for (const name of options.prelude) parts.push({ text: PRELUDES[name], origin: () => `prelude ${name}` })
  if (options.continues) {
    const previous = examples.findLastIndex((e, i) => i < index && e.file === file)
    if (previous === -1) throw new Error(`${file}:${example.line}: "continues" but no example comes before it`)
    collect(examples, previous, parts, false)
  }
  if (template.before !== '') parts.push({ text: template.before, origin: (i) => `${file}:${template.line + i}` })
  parts.push({ text: example.code, origin: (i) => `${file}:${example.line + i}` })
  if (withAfter && template.after !== '') {
    parts.push({ text: template.after, origin: (i) => `${file}:${template.afterLine + i}` })
  }
}

/** Import declarations merged by module: one statement per module and kind, each name once. */
export function mergeImports(statements) {
  const modules = new Map()
  const sideEffects = []
  for (const statement of statements) {
    const text = statement.replace(/\s+/g, ' ').trim().replace(/;$/, '')
    const bare = /^import ['"]([^'"]+)['"]$/.exec(text)
    if (bare !== null) {
      if (!sideEffects.includes(bare[1])) sideEffects.push(bare[1])
      continue
    }
    const m = /^import (type )?(.*?) from ['"]([^'"]+)['"]$/.exec(text)
    if (m === null) throw new Error(`cannot read the import "${statement.trim()}"`)
    const [, typeOnly, clause, specifier] = m
    const entry = modules.get(specifier) ?? { defaults: new Map(), namespaces: new Set(), named: new Map() }
    modules.set(specifier, entry)
    const braces = /\{([^}]*)\}/.exec(clause)
    const outside = clause
      .replace(/\{[^}]*\}/, '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    for (const part of outside) {
      const ns = /^\* as (\w+)$/.exec(part)
      if (ns !== null) entry.namespaces.add(ns[1])
      else entry.defaults.set(part, (entry.defaults.get(part) ?? true) && typeOnly !== undefined)
    }
    for (const item of (braces?.[1] ?? '').split(',').map((s) => s.trim())) {
      if (item === '') continue
      const isType = typeOnly !== undefined || item.startsWith('type ')
      const name = item.replace(/^type /, '')
      entry.named.set(name, (entry.named.get(name) ?? true) && isType)
    }
  }
  const out = sideEffects.map((s) => `import '${s}'`)
  for (const [specifier, { defaults, namespaces, named }] of modules) {
    const names = [...named].map(([name, isType]) => (isType ? `type ${name}` : name))
    const list = names.length > 0 ? `{ ${names.join(', ')} }` : ''
    const defaultList = [...defaults]
    if (defaultList.length === 0 && list !== '') out.push(`import ${list} from '${specifier}'`)
    defaultList.forEach(([name, isType], i) => {
      const tail = i === 0 && list !== '' ? `, ${list}` : ''
      out.push(`import ${isType && tail === '' ? 'type ' : ''}${name}${tail} from '${specifier}'`)
    })
    for (const ns of namespaces) out.push(`import * as ${ns} from '${specifier}'`)
  }
  return out
}
