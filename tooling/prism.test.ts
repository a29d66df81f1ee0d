import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const scratch = mkdtempSync(join(tmpdir(), 'weft-prism-test-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Processes whose environment carries `marker` (Linux: /proc/<pid>/environ). */
function processesMarked(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker)
      } catch {
        return false
      }
    })
    .map(Number)
}

async function eventually(probe: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (probe()) return true
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return probe()
}

describe('startPrism', () => {
  it.each([
    ['a hook that timed out while Prism was starting', 'prism-timeout.fixture.ts', false],
    ['a test process killed while its Prism listens', 'prism-killed.fixture.ts', true],
  ])(
    'leaves no Prism listening and no folder after %s',
    async (_case, fixture, listened) => {
      const marker = `WEFT_PRISM_FIXTURE=${fixture}-${process.pid}-${Date.now()}`
      const out = join(scratch, `${fixture}.url`)
      // A temp folder of the fixture's own, so what its Prism leaves is told apart from other tests' files.
      const fixtureTmp = join(scratch, fixture)
      mkdirSync(fixtureTmp)
      const [key, value] = marker.split('=') as [string, string]
      spawnSync(process.execPath, [vitestBin(), 'run', '--root', join(import.meta.dirname, 'fixtures'), fixture], {
        env: { ...process.env, [key]: value, WEFT_FIXTURE_OUT: out, TMPDIR: fixtureTmp },
        stdio: 'ignore',
        timeout: 90_000,
      })
      expect(await eventually(() => processesMarked(marker).length === 0, 10_000), 'a Prism outlived its test').toBe(
        true,
      )
      // The killed fixture must have had a listening Prism, or this test proves nothing.
      if (listened) expect(existsSync(out), 'the fixture never had Prism listening').toBe(true)
      if (existsSync(out)) {
        const url = readFileSync(out, 'utf8')
        await expect(fetch(url, { signal: AbortSignal.timeout(5_000) })).rejects.toThrow()
      }
      expect(readdirSync(fixtureTmp).filter((name) => name.startsWith('weft-'))).toEqual([])
    },
    150_000,
  )
})

function vitestBin(): string {
  return join(import.meta.dirname, 'node_modules', 'vitest', 'vitest.mjs')
}
