import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script of the repository, without types
import { processesMarked, tempEntries } from './leftovers.mjs'

describe('leftovers', () => {
  it('finds a detached process by the marker in its environment, and not once it has ended', async () => {
    const marker = `WEFT_TEST_RUN=leftovers-test-${process.pid}`
    const child = spawn('sleep', ['30'], {
      env: { PATH: process.env.PATH, WEFT_TEST_RUN: marker.split('=')[1] },
      detached: true,
      stdio: 'ignore',
    })
    child.unref()
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(processesMarked(marker)).toEqual([{ pid: child.pid, command: 'sleep 30' }])
    } finally {
      child.kill('SIGKILL')
    }
    await exited
    expect(processesMarked(marker)).toEqual([])
  })

  it('lists the weft-* folders of the temp folder', () => {
    const before: Set<string> = tempEntries()
    const dir = mkdtempSync(join(tmpdir(), 'weft-leftovers-test-'))
    try {
      const name = dir.split('/').at(-1)
      expect(before.has(name)).toBe(false)
      expect(tempEntries().has(name)).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
