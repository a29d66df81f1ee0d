import { weftVitestConfig } from '../tooling/vitest.shared.ts'

export default weftVitestConfig({ testTimeout: 120_000 })
