import { mergeConfig } from 'vitest/config'
import { weftVitestConfig } from '../vitest.shared.ts'

export default mergeConfig(weftVitestConfig({ testTimeout: 180_000 }), {
  test: {
    // One cluster a file, files one after the other: they measure the same two cores.
    fileParallelism: false,
    typecheck: { enabled: false },
    hookTimeout: 180_000,
  },
})
