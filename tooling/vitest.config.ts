import { weftVitestConfig } from './vitest.shared.js'

export default weftVitestConfig({ include: ['*.test.ts', 'scripts/**/*.test.ts'] })
