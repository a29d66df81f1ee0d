import { createScratchDatabase, type ScratchDatabase } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../src/db/client.js'

// Replicas (or a container's migrate step and a second replica's) start at once against one
// PostgreSQL: their migrations must not race each other.
describe('migrations on PostgreSQL', () => {
  let scratch: ScratchDatabase

  beforeAll(async () => {
    scratch = await createScratchDatabase('migrate_race')
  })
  afterAll(async () => {
    await scratch?.drop()
  })

  it('apply once when several processes migrate the same empty database at the same time', async () => {
    const handles = await Promise.all(
      Array.from({ length: 4 }, () => openDatabase({ kind: 'postgres', url: scratch.url })),
    )
    try {
      const results = await Promise.allSettled(handles.map((handle) => handle.migrate()))
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'])
      const [first] = handles
      const applied = await (first as (typeof handles)[number]).db.execute(
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      )
      const rows = Array.isArray(applied) ? applied : (applied as { rows: unknown[] }).rows
      expect(rows[0]).toMatchObject({ n: expect.any(Number) })
      const again = await Promise.allSettled(handles.map((handle) => handle.migrate()))
      expect(again.every((result) => result.status === 'fulfilled')).toBe(true)
    } finally {
      await Promise.all(handles.map((handle) => handle.close()))
    }
  })
})
