import type { ReliabilityReport } from './merge.js'

type Row = (string | number)[]

const table = (head: string[], rows: Row[]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  )

const mib = (bytes: unknown) => (typeof bytes === 'number' ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : '–')
const pct = (ratio: unknown) => (typeof ratio === 'number' ? `${(ratio * 100).toFixed(1)} %` : '–')
const statuses = (s: unknown) =>
  Object.entries((s ?? {}) as Record<string, number>)
    .map(([code, n]) => `${code}×${n}`)
    .join(' ')
const cell = (text: unknown) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ')

// biome-ignore lint/suspicious/noExplicitAny: the figures are read back from JSON
type Any = any

function fuzzSection(fuzz: Record<string, Any>): string {
  const rows = Object.entries(fuzz).map(
    ([target, f]): Row => [
      target,
      f.inputs,
      Object.entries(f.families as Record<string, Any>)
        .map(([name, fam]) => `${name} ${fam.inputs} (seed ${fam.seed})`)
        .join('<br>'),
      mib(f.heap?.growth),
      (f.uncaughtExceptions ?? []).length,
      (f.failures ?? []).length,
    ],
  )
  const failures = Object.values(fuzz).flatMap((f: Any) => f.failures ?? [])
  const details = failures.map(
    (x: Any) =>
      `- **${x.target} / ${x.family}**: ${cell(x.problems.join('; '))}. Replay: \`RELIABILITY_FAMILY=${x.family} RELIABILITY_SEED=${x.seed} RELIABILITY_PATH=${x.path}\`. ` +
      `Request \`${cell(`${x.request.method} ${x.request.url}`).slice(0, 300)}\` ${x.request.headers ? cell(JSON.stringify(x.request.headers)).slice(0, 300) : ''}` +
      `${x.request.body ? ` body \`${cell(x.request.body).slice(0, 300)}\`` : ''}; answer ${x.response?.statusCode ?? 'none'} \`${cell(x.response?.body ?? '').slice(0, 300)}\``,
  )
  return [
    '### Fuzzing',
    '',
    table(['target', 'inputs', 'families', 'heap growth', 'uncaught', 'failing families'], rows),
    '',
    ...(details.length > 0 ? ['Failing inputs (the first of each failing family, shrunk):', '', ...details, ''] : []),
  ].join('\n')
}

function loadSection(load: Record<string, Any>): string {
  const rows = Object.entries(load).map(
    ([api, f]): Row => [
      api,
      f.mix,
      `${f.connections} × ${f.durationSeconds} s`,
      f.requests,
      f.requestsPerSecond,
      f.latencyMs.p50,
      f.latencyMs.p99,
      f.serverErrors,
      f.socketErrors + f.timeouts,
      `warm-up peak ${mib(f.rss.afterWarmup)} → end ${mib(f.rss.end)} (${pct(f.rss.growth)}) after ${f.warmup.seconds} s warm-up`,
    ],
  )
  return [
    '### Sustained load (autocannon)',
    '',
    table(['API', 'mix', 'load', 'requests', 'req/s', 'p50 ms', 'p99 ms', '5xx', 'socket errors', 'RSS'], rows),
    '',
  ].join('\n')
}

function faultSection(faults: Record<string, Any>): string {
  const rows = Object.entries(faults).flatMap(([api, scenarios]) =>
    Object.entries(scenarios as Record<string, Any>).map(
      ([scenario, f]): Row => [
        api,
        scenario,
        `${f.faultMs} ms${f.terminated === undefined ? '' : ` (${f.terminated} backends)`}`,
        f.writes,
        f.acknowledged,
        f.lost,
        statuses(f.statuses),
        f.maxLatencyMs,
        f.overBound.length,
        f.recoveryMs ?? 'never',
      ],
    ),
  )
  return [
    '### Database faults (throwaway PostgreSQL)',
    '',
    table(
      [
        'API',
        'fault',
        'duration',
        'writes',
        'acknowledged',
        'lost',
        'answers',
        'max latency ms',
        'over 10 s',
        'recovery ms',
      ],
      rows,
    ),
    '',
  ].join('\n')
}

function authSection(auth: Record<string, Any>): string {
  const rows = Object.entries(auth).map(([api, a]): Row => [api, a.rows, a.passed])
  const misses = Object.entries(auth).flatMap(([api, a]) =>
    (a.table as Any[])
      .filter((r) => r.expected !== r.got)
      .map((r) => `- ${api}: ${r.row}: expected ${r.expected}, got ${r.got}`),
  )
  return ['### Auth matrix', '', table(['API', 'rows', 'as expected'], rows), '', ...misses, ''].join('\n')
}

function shutdownSection(shutdown: Record<string, Any>): string {
  const rows = Object.entries(shutdown).map(
    ([api, s]): Row => [api, `${s.heldAnswered.join(', ')}`, s.exit, s.exitMs, statuses(s.loadDuringShutdown.statuses)],
  )
  return [
    '### Graceful shutdown (SIGTERM under load)',
    '',
    table(['API', 'held requests answered', 'exit code', 'exit after ms', 'load answers'], rows),
    '',
  ].join('\n')
}

/** `bench/RELIABILITY.md`: the figures of one run as tables (the JSON beside it has everything). */
export function renderMarkdown(report: ReliabilityReport): string {
  const s = report.sections as Record<string, Record<string, Any>>
  const env = report.environment
  return [
    '## Reliability and security',
    '',
    `Run ${report.generated_at} (${report.mode} form), Node ${env.node}, ${env.cpus} × ${env.cpu_model}, ${env.platform}. ` +
      'Produced by `pnpm test:reliability` (tooling/reliability); every figure is in `bench/reliability.json`.',
    '',
    ...(s.fuzz ? [fuzzSection(s.fuzz)] : []),
    ...(s.load ? [loadSection(s.load)] : []),
    ...(s.faults ? [faultSection(s.faults)] : []),
    ...(s.auth ? [authSection(s.auth)] : []),
    ...(s.shutdown ? [shutdownSection(s.shutdown)] : []),
  ].join('\n')
}
