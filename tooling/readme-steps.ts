import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * The commands of the first `sh` code block under a README's `## Run it` heading, one per line (blank lines
 * dropped; a comment after a command is kept, the shell ignores it). Throws when there is no such block, so
 * a README that loses its steps fails the test that follows them.
 */
export function runItSteps(readmePath: string): string[] {
  const text = readFileSync(readmePath, 'utf8')
  const section = text.split(/^## Run it$/m)[1]
  const block = section?.match(/^```sh\n([\s\S]*?)^```$/m)?.[1]
  if (!block) throw new Error(`${readmePath} has no \`sh\` block under "## Run it"`)
  return block.split('\n').filter((line) => line.trim() !== '')
}

/**
 * A throwaway copy of an app as a fresh clone has it: its package.json, `src/`, `drizzle/`, `scripts/` and
 * `.env.example`, nothing it made since (no `.env`, no `.pglite/`). `node_modules` is a link to the app's own
 * (the workspace's installed dependencies). Files are copied, not linked, so the server's paths (the `.env`
 * and `.pglite/` it looks for beside its package.json) are the copy's.
 */
export function copyOfApp(appDir: string): { dir: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'weft-readme-'))
  const dir = join(root, 'app')
  for (const entry of ['package.json', 'src', 'drizzle', 'scripts', '.env.example']) {
    if (existsSync(join(appDir, entry))) cpSync(join(appDir, entry), join(dir, entry), { recursive: true })
  }
  symlinkSync(join(appDir, 'node_modules'), join(dir, 'node_modules'), 'dir')
  return { dir, remove: () => rmSync(root, { recursive: true, force: true }) }
}

/**
 * A README step as the shell runs it in the app's folder: `pnpm <script>` becomes the script's command from
 * package.json (what `pnpm` runs, without its workspace install check, which needs the real workspace).
 */
export function asShellCommand(step: string, scripts: Record<string, string>): string {
  const script = step.match(/^pnpm (?:run )?([\w:-]+)(?:\s+#.*)?$/)?.[1]
  if (script === undefined) return step
  const command = scripts[script]
  if (command === undefined) throw new Error(`the README runs \`pnpm ${script}\`, which package.json does not define`)
  return command
}
