import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  answerBoundMs,
  type FaultRig,
  outageScenario,
  type ScenarioFigures,
  startRig,
  terminateScenario,
} from '../src/faults/scenarios.js'
import { budget } from '../src/mode.js'
import { startThrowawayPostgres, type ThrowawayPostgres } from '../src/pg/throwaway.js'
import type { ApiName } from '../src/process/server.js'
import { recordFigures } from '../src/report/figures.js'

/**
 * Database faults on a PostgreSQL server this file starts itself (never the shared one): the server
 * stopped for a few seconds during a write load, and live connections cut with pg_terminate_backend.
 * The shortened form runs one outage cycle on API A; the full form runs both scenarios on both APIs.
 */
const plan: [ApiName, 'outage' | 'terminate'][] = budget.allFaultScenarios
  ? [
      ['api-a', 'outage'],
      ['api-a', 'terminate'],
      ['api-b', 'outage'],
      ['api-b', 'terminate'],
    ]
  : [['api-a', 'outage']]

let pg: ThrowawayPostgres

beforeAll(async () => {
  pg = await startThrowawayPostgres()
})
afterAll(async () => {
  await pg?.destroy()
})

describe.each(plan)('%s, database %s during a write load', (api, scenario) => {
  let rig: FaultRig
  let figures: ScenarioFigures

  beforeAll(async () => {
    rig = await startRig(api, pg, scenario)
    figures =
      scenario === 'outage'
        ? await outageScenario(rig, pg, budget.outageSeconds * 1000)
        : await terminateScenario(rig, pg, budget.outageSeconds * 1000)
    recordFigures(['faults', api, scenario], figures)
  })
  afterAll(async () => {
    await rig?.close()
  })

  it('saw the fault', () => {
    if (scenario === 'outage') expect(figures.statuses['503'] ?? 0).toBeGreaterThan(0)
    else expect(figures.terminated).toBeGreaterThan(0)
  })

  it('answers every write with 201 or 503, never another status', () => {
    const others = Object.keys(figures.statuses).filter((s) => s !== '201' && s !== '503')
    expect(others, JSON.stringify(figures.statuses)).toEqual([])
  })

  it('puts Retry-After (header and envelope) on every 503', () => {
    expect(figures.unavailableWithoutRetryAfter).toBe(0)
  })

  it('answers every write, none dropped', () => {
    expect(figures.unansweredErrors).toEqual([])
    expect(figures.unanswered).toBe(0)
  })

  it(`answers every write within ${answerBoundMs / 1000} s: no hang`, () => {
    expect(figures.overBound).toEqual([])
  })

  it('recovers by itself and stays up', () => {
    expect(figures.recoveryMs).not.toBeNull()
    expect(figures.serverAlive).toBe(true)
    expect(figures.healthAfter).toBe(200)
  })

  it('keeps every acknowledged write', () => {
    expect(figures.acknowledged).toBeGreaterThan(0)
    expect(figures.lost).toBe(0)
  })
})
