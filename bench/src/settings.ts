/**
 * Budgets of one benchmark run. `BENCH_SMOKE=1` (CI) runs every code path with tiny budgets and no
 * speed goals; the full run takes about twelve minutes on two cores.
 */
export interface BenchSettings {
  /** Smoke form: same code paths, tiny budgets, figures not meaningful. */
  smoke: boolean
  /** Rounds of each HTTP comparison (baseline and candidate alternate in every round). */
  httpRounds: number
  /** Server processes per side of an HTTP comparison; round `r` measures process `r % httpProcesses`
   *  of each side (a multiple of it in `httpRounds` gives every pair the same number of rounds). */
  httpProcesses: number
  /** Rounds of each peer scenario (src/http/peers.ts: five servers measured in every round). */
  peerRounds: number
  /** Server processes per peer; round `r` measures process `r % peerProcesses` of each. More
   *  processes than the other comparisons: a process can settle in a slower state for its life
   *  (bench/RESULTS.md), and the median of rounds over few processes is then a draw. */
  peerProcesses: number
  /** Seconds autocannon loads a server in one measurement (fractions work; a request count with
   *  pipelining can hang autocannon, so even the smoke form uses a duration). */
  httpSeconds: number
  /** Seconds of warm-up load per server before the first round (JIT, connection pools, caches). */
  httpWarmupSeconds: number
  /** tinybench rounds of each in-repo micro-benchmark, and the time budget of one round. */
  microRounds: number
  microRoundMs: number
  microWarmupMs: number
  /** Products seeded for the API A comparisons. */
  products: number
  users: number
  /** Write a V8 CPU profile of every HTTP server (`--cpu-prof`) into `bench/profiles/`. */
  profile: boolean
  /** Run only the groups named here (`BENCH_ONLY=micro,http:c` runs the micro-benchmarks and every `http:c…` comparison), or everything when empty. */
  only: string[]
}

/** Reads the budgets from the environment. */
export function benchSettings(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  const smoke = env.BENCH_SMOKE === '1' || env.BENCH_SMOKE === 'true'
  const only = (env.BENCH_ONLY ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
  return {
    smoke,
    httpRounds: positive(env.BENCH_HTTP_ROUNDS) ?? (smoke ? 2 : 24),
    httpProcesses: positive(env.BENCH_HTTP_PROCESSES) ?? (smoke ? 2 : 3),
    peerRounds: positive(env.BENCH_PEER_ROUNDS) ?? (smoke ? 1 : 12),
    peerProcesses: positive(env.BENCH_PEER_PROCESSES) ?? (smoke ? 1 : 6),
    httpSeconds: smoke ? 0.3 : 1.5,
    httpWarmupSeconds: smoke ? 0 : 3,
    microRounds: smoke ? 5 : 15,
    microRoundMs: smoke ? 20 : 300,
    microWarmupMs: smoke ? 10 : 300,
    products: smoke ? 200 : 10_000,
    users: smoke ? 10 : 100,
    profile: env.BENCH_PROFILE === '1',
    only,
  }
}

/**
 * Whether a group (`micro`, `packages`, `http:a`...) is selected by `BENCH_ONLY`: named itself or by
 * a prefix (`http:c` selects `http:c1`), or holding a part named (`count:peers-json` selects `count`).
 */
export function selected(settings: BenchSettings, group: string): boolean {
  if (settings.only.length === 0) return true
  return settings.only.some((item) => group.startsWith(item) || item.startsWith(`${group}:`))
}

function positive(raw: string | undefined): number | undefined {
  const value = Number(raw)
  return raw !== undefined && Number.isInteger(value) && value > 0 ? value : undefined
}
