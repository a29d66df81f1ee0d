// `pnpm secret`: fills the empty `SECRET=` line of this app's `.env` (made by `cp .env.example .env`) with 48
// random bytes, base64url, so tokens outlive a restart. A SECRET that is already set is kept: replacing it
// would sign every user out. The value is never printed.
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'

const file = process.argv[2] ?? '.env'
if (!existsSync(file)) {
  process.stderr.write(`no ${file} here: copy the example first (cp .env.example .env)\n`)
  process.exit(1)
}
const text = readFileSync(file, 'utf8')
if (/^SECRET=\S/m.test(text)) {
  process.stdout.write(`SECRET is already set in ${file}: kept (replacing it signs every user out)\n`)
  process.exit(0)
}
const line = `SECRET=${randomBytes(48).toString('base64url')}`
writeFileSync(file, /^SECRET=[ \t]*$/m.test(text) ? text.replace(/^SECRET=[ \t]*$/m, line) : `${text}\n${line}\n`)
process.stdout.write(`wrote a new random SECRET to ${file}\n`)
