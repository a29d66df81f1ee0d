import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { envFilesOf, loadEnvFile } from '../src/config/env-file.js'

describe('envFilesOf', () => {
  it("names the app folder's .env, then the repository root's", () => {
    expect(envFilesOf(new URL('file:///repo/apps/api-a/'))).toEqual(['/repo/apps/api-a/.env', '/repo/.env'])
  })
})

describe('loadEnvFile', () => {
  it('loads the first file that exists, without overriding the environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-shared-env-'))
    const file = join(dir, '.env')
    writeFileSync(file, 'WEFT_SHARED_TEST_FROM_FILE=file\nWEFT_SHARED_TEST_PRESET=file\n')
    process.env.WEFT_SHARED_TEST_PRESET = 'env'
    try {
      expect(loadEnvFile([join(dir, 'missing.env'), file])).toBe(file)
      expect(process.env.WEFT_SHARED_TEST_FROM_FILE).toBe('file')
      expect(process.env.WEFT_SHARED_TEST_PRESET).toBe('env')
    } finally {
      delete process.env.WEFT_SHARED_TEST_FROM_FILE
      delete process.env.WEFT_SHARED_TEST_PRESET
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('loads nothing when no file exists', () => {
    expect(loadEnvFile(['/nonexistent/.env'])).toBeUndefined()
  })
})
