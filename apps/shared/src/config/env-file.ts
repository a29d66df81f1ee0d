import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * The `.env` files an app reads, in order: its own folder's (beside its package.json, the same from `src/` and
 * `dist/`), then the repository root's. `appFolder` is the app's folder as a URL ending in `/`.
 */
export const envFilesOf = (appFolder: URL): string[] =>
  [new URL('.env', appFolder), new URL('../../.env', appFolder)].map((url) => fileURLToPath(url))

/**
 * Loads the first `.env` file found into `process.env`. Variables already set in the environment win.
 * Returns the file used, if any.
 */
export function loadEnvFile(files: readonly string[]): string | undefined {
  const file = files.find((path) => existsSync(path))
  if (file) process.loadEnvFile(file)
  return file
}
