import { heldBytes } from '../load/runner.js'
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

const findingKinds = ['5xx', 'document', 'leakingLogLines', 'contract', 'crash', 'prototype'] as const

function fuzzSection(fuzz: Record<string, Any>): string {
  const rows = Object.entries(fuzz).map(
    ([target, f]): Row => [
      target,
      f.inputs,
      mib(f.heap?.growth),
      (f.uncaughtExceptions ?? []).length,
      ...findingKinds.map((k) => f.findings?.[k] ?? '–'),
      (f.failures ?? []).length,
    ],
  )
  const familyRows = Object.entries(fuzz).flatMap(([target, f]) =>
    Object.entries(f.families as Record<string, Any>).map(
      ([name, fam]): Row => [
        target,
        name,
        fam.inputs,
        fam.seed,
        ...findingKinds.map((k) => fam.findings?.[k] ?? '–'),
        statuses(fam.statuses),
      ],
    ),
  )
  const coverageRows = Object.entries(fuzz).flatMap(([target, f]) =>
    Object.entries((f.operations ?? {}) as Record<string, Record<string, number>>).map(
      ([operation, byStatus]): Row => [target, cell(operation), statuses(byStatus)],
    ),
  )
  const failures = Object.values(fuzz).flatMap((f: Any) => f.failures ?? [])
  const details = failures.map(
    (x: Any) =>
      `- **${x.target} / ${x.family} / ${x.kind ?? 'failure'}${x.operation ? ` on ${cell(x.operation)}` : ''}**: ${cell(x.problems.join('; '))}. Replay: \`RELIABILITY_FAMILY=${x.family} RELIABILITY_SEED=${x.seed} RELIABILITY_PATH=${x.path}\`${x.shrunk ? ' (shrunk)' : ''}. ` +
      `Request \`${cell(`${x.request.method} ${x.request.url}`).slice(0, 300)}\`` +
      `${x.request.body ? ` body \`${cell(JSON.stringify(x.request.body)).slice(0, 300)}\`` : ''}${x.request.bodyBase64 ? ` body (base64) \`${x.request.bodyBase64.slice(0, 200)}\`` : ''}; answer ${x.response?.statusCode ?? 'none'} \`${cell(x.response?.body ?? '').slice(0, 200)}\`` +
      `${x.logExcerpts?.length ? `; log \`${cell(JSON.stringify(x.logExcerpts[0])).slice(0, 300)}\`` : ''}`,
  )
  const kindHeads = ['5xx', 'document violations', 'leaking log lines', 'contract', 'crashes', 'prototype']
  return [
    '### Fuzzing',
    '',
    'Findings count inputs (log leaks count lines). Families: `query`, `headers`, `bodies`, `cursors`, `ids` ' +
      "(hostile input per route), and, generated from each operation's schemas (the OpenAPI document for the " +
      'APIs), `fields` (one body field hostile: NUL, C0/C1 controls, lone surrogates, 1 MiB, out-of-range ' +
      'numbers, wrong types, deep nesting; duplicated, `__proto__` and `constructor` keys), `params` ' +
      '(hostile path, query, header and cookie parameters) and `encoding` (invalid and overlong UTF-8, BOM, ' +
      'deep nesting, 1 MiB strings, concatenated documents).',
    '',
    table(['target', 'inputs', 'heap growth', 'uncaught', ...kindHeads, 'distinct findings'], rows),
    '',
    table(['target', 'family', 'inputs', 'seed', ...kindHeads, 'answers'], familyRows),
    '',
    ...(coverageRows.length > 0
      ? [
          'Answers per documented operation (all families):',
          '',
          table(['target', 'operation', 'answers'], coverageRows),
          '',
        ]
      : []),
    ...(details.length > 0
      ? ['Distinct findings (the first input of each, shrunk where shrinking finished):', '', ...details, '']
      : []),
  ].join('\n')
}

/** The work oracle's figures of each target (kept beside the fuzz figures, as `work`). */
function workSection(fuzz: Record<string, Any>): string {
  const measured = Object.entries(fuzz).filter(([, f]) => f.work)
  if (measured.length === 0) return ''
  const rows = measured.map(([target, f]): Row => {
    const surfaces = Object.entries((f.work.surfaces ?? {}) as Record<string, Any>)
    const worst = surfaces.reduce<[string, Any] | undefined>(
      (a, b) => (!a || b[1].worstRatio > a[1].worstRatio ? b : a),
      undefined,
    )
    const slowest = surfaces.reduce<[string, Any] | undefined>(
      (a, b) => (!a || b[1].slowestMs > a[1].slowestMs ? b : a),
      undefined,
    )
    return [
      target,
      f.work.shapes,
      surfaces.length,
      `${f.work.topBytes?.header ?? '–'} / ${f.work.topBytes?.body ?? '–'}`,
      worst ? `${worst[1].worstRatio.toFixed(2)} (${cell(worst[0])})` : '–',
      slowest ? `${slowest[1].slowestMs.toFixed(2)} (${cell(slowest[0])})` : '–',
      f.work.findings.length,
      `${f.work.seconds} (${f.work.cpuSeconds ?? '–'} CPU)`,
    ]
  })
  const details = measured.flatMap(([, f]) =>
    (f.work.findings as Any[]).map(
      (x) =>
        `- **${x.target} / work on ${cell(x.operation)}**: ${x.ratio.toFixed(2)}× the CPU time for twice the bytes; ${cell(x.shape).slice(0, 300)}; ` +
        `${x.bytes.map((b: number, i: number) => `${b} B ${x.cpuMs[i].toFixed(2)} ms (${x.statuses[i]})`).join(', ')}. ` +
        `Replay: \`RELIABILITY_FAMILY='work:${x.surface}' RELIABILITY_SEED=${x.seed} RELIABILITY_PATH=${x.path}\``,
    ),
  )
  return [
    '### Work oracle',
    '',
    'Growth shapes (a unit of tricky characters repeated: separators, quotes, escapes, brackets, nesting, ' +
      'repeated keys, parameters, digits; for MessagePack and CBOR, arrays, maps, nesting, strings, bignums, ' +
      'shared references and records) sent in every request header the packages and apps read, the query ' +
      'string and every body type, at n, 2n and 4n bytes (4n: 16 KiB for headers and queries, 90 % of the ' +
      'body limit up to 64 KiB for bodies). A finding: twice the bytes cost over 2.5× the CPU time (fastest ' +
      'of interleaved runs, measured three times before it counts).',
    '',
    table(
      [
        'target',
        'shapes',
        'surfaces',
        'largest header / body (B)',
        'worst ratio',
        'slowest request at 4n (CPU ms)',
        'findings',
        'seconds',
      ],
      rows,
    ),
    '',
    ...(details.length > 0 ? ['Findings:', '', ...details, ''] : []),
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
      `${mib(heldBytes(f.held.afterWarmup))} after ${f.warmup.seconds} s warm-up → ${mib(heldBytes(f.held.end))} at the end (${pct(f.held.growth)})`,
      `after a major GC: ${mib(f.rss.afterWarmup)} → ${mib(f.rss.end)} (${pct(f.rss.growth)})`,
    ],
  )
  return [
    '### Sustained load (autocannon)',
    '',
    table(
      ['API', 'mix', 'load', 'requests', 'req/s', 'p50 ms', 'p99 ms', '5xx', 'socket errors', 'held memory', 'RSS'],
      rows,
    ),
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
    ...(s.fuzz ? [fuzzSection(s.fuzz), workSection(s.fuzz)] : []),
    ...(s.load ? [loadSection(s.load)] : []),
    ...(s.faults ? [faultSection(s.faults)] : []),
    ...(s.auth ? [authSection(s.auth)] : []),
    ...(s.shutdown ? [shutdownSection(s.shutdown)] : []),
  ].join('\n')
}
