import { mergeConfig } from 'vitest/config'
import { weftVitestConfig } from '../vitest.shared.ts'

const full = process.env.RELIABILITY_FULL === '1'
// A fuzz-only run of another size (RELIABILITY_FUZZ_INPUTS) may take as long as the full form.
const long = full || process.env.RELIABILITY_FUZZ_INPUTS !== undefined

export default mergeConfig(weftVitestConfig({ testTimeout: long ? 900_000 : 120_000 }), {
  test: {
    // Load, faults and shutdown measure a machine they must not share with each other.
    fileParallelism: false,
    // No type tests here (typecheck is its own script); skipping the pass saves a tsc run.
    typecheck: { enabled: false },
    globalSetup: ['./test/global-setup.ts'],
    hookTimeout: long ? 3_600_000 : 120_000,
  },
})
