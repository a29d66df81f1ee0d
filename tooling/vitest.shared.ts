import { defineConfig } from 'vitest/config'

/**
 * Vitest settings every workspace package and app shares.
 *
 * - `@weft/source` makes workspace imports resolve to TypeScript source, so tests never need a build.
 * - The JSON report (`test-results.json`) is what `.ci/run` totals into its `N passed, N failed` line.
 */
export function weftVitestConfig(overrides: { testTimeout?: number; include?: string[] } = {}) {
  return defineConfig({
    resolve: { conditions: ['@weft/source'] },
    ssr: { resolve: { conditions: ['@weft/source'] } },
    test: {
      include: overrides.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: overrides.testTimeout ?? 60_000,
      hookTimeout: 60_000,
      reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
      typecheck: { enabled: true, include: ['**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    },
  })
}
