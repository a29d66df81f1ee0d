import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** `.env` beside the app's package.json (the same from `src/` and `dist/`), then the repository root's. */
const candidates = [new URL('../../.env', import.meta.url), new URL('../../../../.env', import.meta.url)].map((url) =>
  fileURLToPath(url),
)

/**
 * Loads the first `.env` file found (the app folder's, else the repository root's) into `process.env`.
 * Variables already set in the environment win. Returns the file used, if any.
 */
export function loadEnvFile(files: readonly string[] = candidates): string | undefined {
  const file = files.find((path) => existsSync(path))
  if (file) process.loadEnvFile(file)
  return file
}
