import { describe, expect, it } from 'vitest'
import { benchSettings, selected } from './settings.js'

describe('benchSettings', () => {
  it('measures every HTTP side in three processes over 24 rounds by default', () => {
    const settings = benchSettings({})
    expect(settings).toMatchObject({ smoke: false, httpProcesses: 3, httpRounds: 24, httpSeconds: 1.5 })
    expect(settings.httpRounds % settings.httpProcesses).toBe(0)
  })

  it('keeps two processes in the smoke form, so the rotation over processes runs in CI', () => {
    expect(benchSettings({ BENCH_SMOKE: '1' })).toMatchObject({ smoke: true, httpProcesses: 2, httpRounds: 2 })
  })

  it('takes positive whole numbers from BENCH_HTTP_PROCESSES and BENCH_HTTP_ROUNDS, ignoring anything else', () => {
    expect(benchSettings({ BENCH_HTTP_PROCESSES: '1', BENCH_HTTP_ROUNDS: '8' })).toMatchObject({
      httpProcesses: 1,
      httpRounds: 8,
    })
    for (const bad of ['0', '-2', '1.5', 'three', '']) {
      expect(benchSettings({ BENCH_HTTP_PROCESSES: bad, BENCH_HTTP_ROUNDS: bad })).toMatchObject({
        httpProcesses: 3,
        httpRounds: 24,
      })
    }
  })
})

describe('selected', () => {
  it('runs the control with `http:a` and (b) with `http:b`, each alone', () => {
    const settings = benchSettings({ BENCH_ONLY: 'http:b' })
    expect(selected(settings, 'http:b-context-hello')).toBe(true)
    expect(selected(settings, 'http:a-control')).toBe(false)
    expect(selected(benchSettings({}), 'http:a-control')).toBe(true)
  })
})
