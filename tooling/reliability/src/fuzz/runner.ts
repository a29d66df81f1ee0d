import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { full } from '../mode.js'
import { type FamilyName, familiesOf } from './families.js'
import { countUncaught, prototypeGuard, settledHeap } from './guards.js'
import { leaksIn } from './logs.js'
import { selfId, sessionAuthorization } from './session.js'
import type { FuzzRequest, FuzzResponse, FuzzTarget } from './target.js'

/** The kinds of finding the oracle tells apart (one input may have several). */
export type FindingKind = '5xx' | 'document' | 'leak' | 'contract' | 'crash' | 'prototype'

/** A failing input, with everything needed to replay it. */
export interface FuzzFailure {
  target: string
  family: FamilyName
  kind: FindingKind
  /** The operation aimed at (`POST /api/auth/login`), or the request's method and path. */
  operation: string
  seed: number
  /** fast-check's path to the counterexample: replay with `RELIABILITY_FAMILY`, `_SEED` and `_PATH`. */
  path: string
  /** Shrinking found a smaller input with the same finding (else `path` is the first input's). */
  shrunk: boolean
  problems: string[]
  request: { method: string; url: string; headers: Record<string, string>; body?: string; bodyBase64?: string }
  response?: { statusCode: number; headers: FuzzResponse['headers']; body: string }
  /** The offending log lines (excerpts), for leaks. */
  logExcerpts?: string[]
}

/** Inputs with each kind of finding (log leaks count lines, not inputs). */
export type FindingCounts = Record<'5xx' | 'document' | 'leakingLogLines' | 'contract' | 'crash' | 'prototype', number>

/** What fuzzing one family of one target did. */
export interface FamilyFigures {
  inputs: number
  seed: number
  /** Responses by status code. */
  statuses: Record<string, number>
  findings: FindingCounts
  /** The first failing input of each distinct finding (kind, operation, problem), shrunk where possible. */
  failures: FuzzFailure[]
}

/**
 * A family's inputs run in chunks of at least 2,000 (at most 10 chunks), each with its own seed
 * (`seed + chunk`): fast-check grows its inputs over a run, and several runs see more small ones.
 */
const chunkCount = (inputs: number) => Math.max(1, Math.min(10, Math.floor(inputs / 2_000)))

/** What fuzzing one target did. */
export interface TargetFigures {
  inputs: number
  families: Partial<Record<FamilyName, FamilyFigures>>
  uncaughtExceptions: string[]
  /** Settled heap (idle, then full GCs) after the first family and at the end (bytes). */
  heap: { afterWarmup: number; end: number; growth: number }
  failures: FuzzFailure[]
  /** The families' finding counts, summed. */
  findings: FindingCounts
  /** Answers by status for each documented operation, over all families: the coverage. */
  operations: Record<string, Record<string, number>>
}

/** The fixed seed of a target's family: the same inputs on every run, unless `RELIABILITY_SEED` says otherwise. */
export function seedOf(target: string, family: string): number {
  if (process.env.RELIABILITY_SEED) return Number(process.env.RELIABILITY_SEED)
  return createHash('sha256').update(`${target}/${family}`).digest().readInt32LE(0)
}

/** An answer taking longer than this counts as a hang. */
const answerTimeoutMs = 10_000

/** The request as sent: `{self}` and `{session}` replaced by the session user's id and token. */
export async function resolve(target: FuzzTarget, request: FuzzRequest): Promise<FuzzRequest> {
  const usesSelf = request.url.includes(selfId)
  const usesToken = request.headers.authorization === sessionAuthorization
  if (!usesSelf && !usesToken) return request
  if (!target.session) throw new Error(`${target.name} has no session for ${request.url}`)
  const credentials = await target.session.credentials()
  const headers = { ...request.headers }
  if (usesToken) headers.authorization = credentials.authorization
  return { ...request, url: request.url.split(selfId).join(String(credentials.id)), headers }
}

/** Sends one request through `inject`; no answer within 10 s is an error. */
export async function send(target: FuzzTarget, request: FuzzRequest): Promise<FuzzResponse> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${answerTimeoutMs} ms`)), answerTimeoutMs)
  })
  try {
    const response = await Promise.race([
      target.app.inject({
        method: request.method,
        url: request.url,
        headers: request.headers,
        ...(request.payload === undefined ? {} : { payload: request.payload }),
      }),
      timeout,
    ])
    return { statusCode: response.statusCode, headers: response.headers, body: response.body }
  } finally {
    clearTimeout(timer)
  }
}

/** One input's outcome: the problems by kind, what was sent and answered. */
interface Outcome {
  sent: FuzzRequest
  response: FuzzResponse | undefined
  problems: { kind: FindingKind; text: string }[]
  logExcerpts: string[]
}

function kindOf(problem: string): FindingKind {
  if (/^status 5\d\d$/.test(problem)) return '5xx'
  if (problem.startsWith('document:')) return 'document'
  if (problem.startsWith('inject failed')) return 'crash'
  if (/prototype|inherits an enumerable/.test(problem)) return 'prototype'
  return 'contract'
}

/** Sends one input and applies the whole oracle: status, contract, document, log lines, prototypes. */
async function runOne(target: FuzzTarget, request: FuzzRequest, prototypesIntact: () => string[]): Promise<Outcome> {
  const texts: string[] = []
  let sent = request
  let response: FuzzResponse | undefined
  try {
    sent = await resolve(target, request)
    target.logs?.take() // lines of the session's own sign-up are not this input's
    response = await send(target, sent)
    texts.push(...target.check(sent, response))
    target.session?.afterAnswer(
      sent,
      request.url.includes(selfId),
      request.headers.authorization === sessionAuthorization,
      response.statusCode,
    )
  } catch (error) {
    texts.push(`inject failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  texts.push(...prototypesIntact())
  const problems = texts.map((text) => ({ kind: kindOf(text), text }))
  const leaks = target.logs ? leaksIn(target.logs.take(), target.session?.secrets ?? []) : []
  for (const leak of leaks) problems.push({ kind: 'leak', text: leak.kind })
  return { sent, response, problems, logExcerpts: leaks.map((l) => l.excerpt) }
}

class Violation extends Error {
  constructor(readonly outcome: Outcome) {
    super(outcome.problems.map((p) => p.text).join('; '))
  }
}

function describeRequest(request: FuzzRequest): FuzzFailure['request'] {
  const out: FuzzFailure['request'] = {
    method: request.method,
    url: request.url.slice(0, 4_000),
    headers: request.headers,
  }
  if (request.payload !== undefined) {
    const utf8 = request.payload.toString('utf8')
    if (Buffer.from(utf8, 'utf8').equals(request.payload)) out.body = utf8.slice(0, 4_000)
    else out.bodyBase64 = request.payload.subarray(0, 4_000).toString('base64')
  }
  return out
}

const operationName = (request: FuzzRequest) => request.operation ?? `${request.method} ${request.url.split('?')[0]}`

/** One distinct finding: the same kind and problem on the same operation is the same bug. */
const signatureOf = (request: FuzzRequest, kind: FindingKind, text: string) =>
  `${kind} ${operationName(request)} ${text.replace(/\d+/g, 'N').slice(0, 200)}`

const emptyCounts = (): FindingCounts => ({
  '5xx': 0,
  document: 0,
  leakingLogLines: 0,
  contract: 0,
  crash: 0,
  prototype: 0,
})

/** Time fast-check may spend shrinking one finding. */
const shrinkMs = full ? 60_000 : 2_000

/**
 * Fuzzes one family: `inputs` generated requests, each checked against the whole oracle. Every input runs
 * (a finding does not end the run), so the counts are counts; then the first input of each distinct
 * finding is replayed through fast-check (its seed and path) and shrunk. With `RELIABILITY_SEED` and
 * `RELIABILITY_PATH` set, replays that one counterexample instead.
 */
export async function fuzzFamily(
  target: FuzzTarget,
  family: FamilyName,
  arbitrary: fc.Arbitrary<FuzzRequest>,
  inputs: number,
  coverage: Record<string, Record<string, number>> = {},
): Promise<FamilyFigures> {
  const seed = seedOf(target.name, family)
  const prototypesIntact = prototypeGuard()
  const figures: FamilyFigures = { inputs: 0, seed, statuses: {}, findings: emptyCounts(), failures: [] }
  const firsts = new Map<
    string,
    { seed: number; path: string; outcome: Outcome; kind: FindingKind; request: FuzzRequest }
  >()
  const replayPath = process.env.RELIABILITY_PATH
  const chunks = replayPath ? 1 : chunkCount(inputs)
  const chunkSize = Math.ceil(inputs / chunks)
  for (let chunk = 0; figures.inputs < inputs && chunk < chunks; chunk++) {
    const chunkSeed = (seed + chunk) | 0
    let index = 0
    const counting = fc.asyncProperty(arbitrary, async (request) => {
      const path = String(index++)
      const outcome = await runOne(target, request, prototypesIntact)
      if (outcome.response) {
        const status = outcome.response.statusCode
        figures.statuses[status] = (figures.statuses[status] ?? 0) + 1
        const byStatus = request.operation === undefined ? undefined : coverage[request.operation]
        if (byStatus) byStatus[status] = (byStatus[status] ?? 0) + 1
      }
      const kinds = new Set(outcome.problems.map((p) => p.kind))
      for (const kind of kinds) if (kind !== 'leak') figures.findings[kind] += 1
      figures.findings.leakingLogLines += outcome.logExcerpts.length
      for (const problem of outcome.problems) {
        const signature = signatureOf(request, problem.kind, problem.text)
        if (!firsts.has(signature))
          firsts.set(signature, { seed: chunkSeed, path, outcome, kind: problem.kind, request })
      }
    })
    const numRuns = replayPath ? 1 : Math.min(chunkSize, inputs - figures.inputs)
    const details = await fc.check(counting, { numRuns, seed: chunkSeed, ...(replayPath ? { path: replayPath } : {}) })
    figures.inputs += details.numRuns
    if (details.failed) throw details.errorInstance ?? new Error(`${family}: fast-check failed`)
    if (chunks > 1)
      process.stderr.write(`fuzz ${target.name}/${family} chunk ${chunk + 1}: ${figures.inputs}/${inputs} inputs\n`)
  }
  for (const [signature, first] of firsts)
    figures.failures.push(await shrink(target, family, signature, first, prototypesIntact))
  return figures
}

/**
 * Replays a finding's first input through fast-check (same seed, its path) with a property that fails on
 * that finding only, so fast-check shrinks it to a smaller input with the same finding.
 */
async function shrink(
  target: FuzzTarget,
  family: FamilyName,
  signature: string,
  first: { seed: number; path: string; outcome: Outcome; kind: FindingKind; request: FuzzRequest },
  prototypesIntact: () => string[],
): Promise<FuzzFailure> {
  const arbitrary = familiesOf(target)[family]
  let best = { path: first.path, outcome: first.outcome, shrunk: false }
  if (arbitrary && !process.env.RELIABILITY_PATH && first.kind !== 'prototype') {
    const property = fc.asyncProperty(arbitrary, async (request) => {
      const outcome = await runOne(target, request, prototypesIntact)
      if (outcome.problems.some((p) => signatureOf(request, p.kind, p.text) === signature)) throw new Violation(outcome)
    })
    const details = await fc.check(property, {
      numRuns: 1,
      seed: first.seed,
      path: first.path,
      interruptAfterTimeLimit: shrinkMs,
      markInterruptAsFailure: false,
    })
    const error = details.errorInstance
    if (details.failed && error instanceof Violation && details.counterexamplePath) {
      best = {
        path: details.counterexamplePath,
        outcome: error.outcome,
        shrunk: details.counterexamplePath !== first.path,
      }
    }
  }
  const { outcome } = best
  return {
    target: target.name,
    family,
    kind: first.kind,
    operation: operationName(first.request),
    seed: first.seed,
    path: best.path,
    shrunk: best.shrunk,
    problems: [...new Set(outcome.problems.map((p) => p.text))],
    request: describeRequest(outcome.sent),
    ...(outcome.response
      ? {
          response: {
            statusCode: outcome.response.statusCode,
            headers: outcome.response.headers,
            body: outcome.response.body.slice(0, 4_000),
          },
        }
      : {}),
    ...(outcome.logExcerpts.length > 0 ? { logExcerpts: outcome.logExcerpts.slice(0, 3) } : {}),
  }
}

/**
 * Fuzzes every family of a target, splitting `inputs` evenly between them. Never throws on a failing
 * input: the failures come back recorded (seed, path, request, response) for the test to assert on.
 */
export async function fuzzTarget(target: FuzzTarget, options: { inputs: number }): Promise<TargetFigures> {
  const only = process.env.RELIABILITY_FAMILY
  const families = (Object.entries(familiesOf(target)) as [FamilyName, fc.Arbitrary<FuzzRequest>][]).filter(
    ([name]) => only === undefined || name === only,
  )
  const perFamily = Math.ceil(options.inputs / families.length)
  const figures: TargetFigures = {
    inputs: 0,
    families: {},
    uncaughtExceptions: [],
    heap: { afterWarmup: 0, end: 0, growth: 0 },
    failures: [],
    findings: emptyCounts(),
    operations: Object.fromEntries((target.operations ?? []).map((op) => [op.name, {}])),
  }
  const { uncaught } = await countUncaught(async () => {
    for (const [index, [name, arbitrary]] of families.entries()) {
      const family = await fuzzFamily(target, name, arbitrary, perFamily, figures.operations)
      figures.families[name] = family
      figures.inputs += family.inputs
      figures.failures.push(...family.failures)
      for (const [kind, n] of Object.entries(family.findings)) figures.findings[kind as keyof FindingCounts] += n
      if (index === 0) figures.heap.afterWarmup = await settledHeap()
    }
  })
  figures.uncaughtExceptions = uncaught
  figures.heap.end = await settledHeap()
  figures.heap.growth = figures.heap.end - figures.heap.afterWarmup
  return figures
}

/** The headers an assertion message needs (the rest is in the recorded figures). */
const pickHeaders = (headers: FuzzResponse['headers']) =>
  Object.fromEntries(
    Object.entries(headers).filter(([name]) => ['content-type', 'www-authenticate', 'retry-after'].includes(name)),
  )

/** A failure as a readable block for an assertion message. */
export function formatFailure(failure: FuzzFailure): string {
  return [
    `${failure.target} / ${failure.family} / ${failure.kind} on ${failure.operation}: ${failure.problems.join('; ')}`,
    `  replay: RELIABILITY_FAMILY=${failure.family} RELIABILITY_SEED=${failure.seed} RELIABILITY_PATH=${failure.path}`,
    `  request: ${JSON.stringify(failure.request).slice(0, 2_000)}`,
    `  response: ${failure.response ? `${failure.response.statusCode} ${JSON.stringify(pickHeaders(failure.response.headers))} ${failure.response.body.slice(0, 1_000)}` : 'none'}`,
    ...(failure.logExcerpts ?? []).map((line) => `  log: ${JSON.stringify(line)}`),
  ].join('\n')
}
