import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

const failuresReporter = new URL('./failures-reporter.ts', import.meta.url).pathname

/**
 * Vitest settings every workspace package and app shares.
 *
 * - `@weft/source` makes workspace imports resolve to TypeScript source, so tests never need a build.
 * - The JSON report (`test-results.json`) is what `pnpm test:summary` totals into its `N passed, N failed` line;
 *   `test-failures.json` (./failures-reporter.ts) adds the errors that happened outside any test (hooks, imports).
 * - One worker per two cores: turbo runs two or three workspaces at once (tooling/scripts/run-tests.mjs), and
 *   each test file starts servers, databases and browsers of its own, so a 2-core machine runs two files at a time.
 */
export function weftVitestConfig(overrides: { testTimeout?: number; include?: string[] } = {}) {
  return defineConfig({
    resolve: { conditions: ['@weft/source'] },
    ssr: { resolve: { conditions: ['@weft/source'] } },
    test: {
      include: overrides.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // Generous: under `pnpm test` on two cores a file shares the machine with another workspace's files.
      testTimeout: overrides.testTimeout ?? 90_000,
      hookTimeout: 120_000,
      maxWorkers: Math.max(1, Math.floor(availableParallelism() / 2)),
      reporters: ['default', ['json', { outputFile: 'test-results.json' }], failuresReporter],
      typecheck: { enabled: true, include: ['**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    },
  })
}
