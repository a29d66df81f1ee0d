import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { inject } from 'vitest'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Folder where each test file drops its figures; the global teardown merges them. */
    reliabilityFiguresDir: string
  }
}

/**
 * Records one group of figures, e.g. `recordFigures(['load', 'api-a'], { requests, p99 })`. Test files run
 * in separate workers, so each writes its own small file; the global teardown merges them into
 * `bench/reliability.json` and `bench/RELIABILITY.md`.
 */
export function recordFigures(path: readonly string[], value: unknown): void {
  const dir = inject('reliabilityFiguresDir')
  mkdirSync(dir, { recursive: true })
  const name = path.map((p) => p.replace(/[^a-z0-9-]/gi, '_')).join('.')
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ path, value }))
}
