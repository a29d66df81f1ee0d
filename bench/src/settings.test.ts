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

describe('benchSettings, peers', () => {
  it('measures the peers in 12 rounds (five servers a round), one in the smoke form, BENCH_PEER_ROUNDS overriding', () => {
    expect(benchSettings({}).peerRounds).toBe(12)
    expect(benchSettings({ BENCH_SMOKE: '1' }).peerRounds).toBe(1)
    expect(benchSettings({ BENCH_PEER_ROUNDS: '6' }).peerRounds).toBe(6)
  })

  it('runs six processes per peer, every one measured in the same number of rounds; one in the smoke form', () => {
    const settings = benchSettings({})
    expect(settings.peerProcesses).toBe(6)
    expect(settings.peerRounds % settings.peerProcesses).toBe(0)
    expect(benchSettings({ BENCH_SMOKE: '1' }).peerProcesses).toBe(1)
    expect(benchSettings({ BENCH_PEER_PROCESSES: '2' }).peerProcesses).toBe(2)
  })
})

describe('selected', () => {
  it('runs every peer scenario with `http:peers`, one with `http:peers-json`, and all of them with `http`', () => {
    for (const only of ['http', 'http:peers', 'http:peers-json']) {
      expect(selected(benchSettings({ BENCH_ONLY: only }), 'http:peers-json')).toBe(true)
    }
    expect(selected(benchSettings({ BENCH_ONLY: 'http:peers-json' }), 'http:peers-hello')).toBe(false)
    expect(selected(benchSettings({ BENCH_ONLY: 'http:b' }), 'http:peers-hello')).toBe(false)
  })

  it('runs the control with `http:a` and (b) with `http:b`, each alone', () => {
    const settings = benchSettings({ BENCH_ONLY: 'http:b' })
    expect(selected(settings, 'http:b-context-hello')).toBe(true)
    expect(selected(settings, 'http:a-control')).toBe(false)
    expect(selected(benchSettings({}), 'http:a-control')).toBe(true)
  })
})

describe('a part of a step', () => {
  it('selects the step that holds it, and only that part within it', () => {
    const settings = benchSettings({ BENCH_ONLY: 'count:peers-query' })
    expect(selected(settings, 'count')).toBe(true)
    expect(selected(settings, 'count:peers-query')).toBe(true)
    expect(selected(settings, 'count:peers-json')).toBe(false)
    expect(selected(settings, 'count:products')).toBe(false)
    expect(selected(settings, 'micro')).toBe(false)
  })
})
