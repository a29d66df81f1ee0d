import { weftVitestConfig } from '../../tooling/vitest.shared.ts'

export default weftVitestConfig()
