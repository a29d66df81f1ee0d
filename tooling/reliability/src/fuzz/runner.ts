import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { type FamilyName, familiesOf } from './families.js'
import { countUncaught, prototypeGuard, settledHeap } from './guards.js'
import type { FuzzRequest, FuzzResponse, FuzzTarget } from './target.js'

/** A failing input, with everything needed to replay it. */
export interface FuzzFailure {
  target: string
  family: FamilyName
  seed: number
  /** fast-check's path to the shrunk counterexample: replay with `RELIABILITY_FAMILY`, `_SEED` and `_PATH`. */
  path: string
  problems: string[]
  request: { method: string; url: string; headers: Record<string, string>; body?: string; bodyBase64?: string }
  response?: { statusCode: number; headers: FuzzResponse['headers']; body: string }
}

/** What fuzzing one family of one target did. */
export interface FamilyFigures {
  inputs: number
  seed: number
  /** Responses by status code. */
  statuses: Record<string, number>
  /** The first failing input of each chunk that failed, one per kind of problem. */
  failures: FuzzFailure[]
}

/**
 * A family's inputs run in chunks of at least 2,000 (at most 10 chunks), each with its own seed
 * (`seed + chunk`): a failing input ends only its chunk, so one bug does not hide the rest of the run.
 * Chunks stay large because fast-check grows its inputs over a run.
 */
const chunkCount = (inputs: number) => Math.max(1, Math.min(10, Math.floor(inputs / 2_000)))

/** Further chunks a family may run when failing chunks end early. */
const extraChunks = 40

/** What fuzzing one target did. */
export interface TargetFigures {
  inputs: number
  families: Partial<Record<FamilyName, FamilyFigures>>
  uncaughtExceptions: string[]
  /** Settled heap (idle, then full GCs) after the first family and at the end (bytes). */
  heap: { afterWarmup: number; end: number; growth: number }
  failures: FuzzFailure[]
}

/** The fixed seed of a target's family: the same inputs on every run, unless `RELIABILITY_SEED` says otherwise. */
export function seedOf(target: string, family: string): number {
  if (process.env.RELIABILITY_SEED) return Number(process.env.RELIABILITY_SEED)
  return createHash('sha256').update(`${target}/${family}`).digest().readInt32LE(0)
}

/** An answer taking longer than this counts as a hang. */
const answerTimeoutMs = 10_000

async function send(target: FuzzTarget, request: FuzzRequest): Promise<FuzzResponse> {
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

class Violation extends Error {
  constructor(
    readonly problems: string[],
    readonly response: FuzzResponse | undefined,
  ) {
    super(problems.join('; '))
  }
}

function describeRequest(request: FuzzRequest): FuzzFailure['request'] {
  const out: FuzzFailure['request'] = { method: request.method, url: request.url, headers: request.headers }
  if (request.payload !== undefined) {
    const utf8 = request.payload.toString('utf8')
    if (Buffer.from(utf8, 'utf8').equals(request.payload)) out.body = utf8.slice(0, 4_000)
    else out.bodyBase64 = request.payload.subarray(0, 4_000).toString('base64')
  }
  return out
}

/**
 * Fuzzes one family: `inputs` generated requests, each checked against the target's contract. With
 * `RELIABILITY_SEED` and `RELIABILITY_PATH` set, replays that one counterexample instead.
 */
export async function fuzzFamily(
  target: FuzzTarget,
  family: FamilyName,
  arbitrary: fc.Arbitrary<FuzzRequest>,
  inputs: number,
): Promise<FamilyFigures> {
  const seed = seedOf(target.name, family)
  const statuses: Record<string, number> = {}
  const prototypesIntact = prototypeGuard()
  const property = fc.asyncProperty(arbitrary, async (request) => {
    let response: FuzzResponse | undefined
    const problems: string[] = []
    try {
      response = await send(target, request)
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1
      problems.push(...target.check(request, response))
    } catch (error) {
      problems.push(`inject failed: ${error instanceof Error ? error.message : String(error)}`)
    }
    problems.push(...prototypesIntact())
    if (problems.length > 0) throw new Violation(problems, response)
  })
  const replayPath = process.env.RELIABILITY_PATH
  const chunks = chunkCount(inputs)
  const maxChunks = replayPath ? 1 : chunks + extraChunks
  const chunkSize = Math.ceil(inputs / chunks)
  const figures: FamilyFigures = { inputs: 0, seed, statuses, failures: [] }
  const seen = new Set<string>()
  // A chunk that fails early leaves inputs untried: more chunks (new seeds) use them, up to a limit.
  for (let chunk = 0; figures.inputs < inputs && chunk < maxChunks; chunk++) {
    const chunkSeed = (seed + chunk) | 0
    const numRuns = Math.min(chunkSize, inputs - figures.inputs)
    const details = await fc.check(property, {
      numRuns,
      seed: chunkSeed,
      ...(replayPath ? { path: replayPath } : {}),
      endOnFailure: false,
    })
    figures.inputs += details.numRuns
    if (chunks > 1) {
      process.stderr.write(
        `fuzz ${target.name}/${family} chunk ${chunk + 1}: ${figures.inputs}/${inputs} inputs${details.failed ? ', failed' : ''}\n`,
      )
    }
    if (!details.failed || !details.counterexample) continue
    const error = details.errorInstance
    const violation = error instanceof Violation ? error : undefined
    const problems = violation?.problems ?? [String(error)]
    // One report per kind of problem: the same bug found again by a later chunk adds nothing.
    const signature = problems.map((p) => p.replace(/\d+/g, 'N')).join('; ')
    if (seen.has(signature)) continue
    seen.add(signature)
    const [request] = details.counterexample
    figures.failures.push({
      target: target.name,
      family,
      seed: chunkSeed,
      path: details.counterexamplePath ?? '',
      problems,
      request: describeRequest(request),
      ...(violation?.response
        ? {
            response: {
              statusCode: violation.response.statusCode,
              headers: violation.response.headers,
              body: violation.response.body.slice(0, 4_000),
            },
          }
        : {}),
    })
  }
  return figures
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
  }
  const { uncaught } = await countUncaught(async () => {
    for (const [index, [name, arbitrary]] of families.entries()) {
      const family = await fuzzFamily(target, name, arbitrary, perFamily)
      figures.families[name] = family
      figures.inputs += family.inputs
      figures.failures.push(...family.failures)
      if (index === 0) figures.heap.afterWarmup = await settledHeap()
    }
  })
  figures.uncaughtExceptions = uncaught
  figures.heap.end = await settledHeap()
  figures.heap.growth = figures.heap.end - figures.heap.afterWarmup
  return figures
}

/** A failure as a readable block for an assertion message. */
export function formatFailure(failure: FuzzFailure): string {
  return [
    `${failure.target} / ${failure.family}: ${failure.problems.join('; ')}`,
    `  replay: RELIABILITY_FAMILY=${failure.family} RELIABILITY_SEED=${failure.seed} RELIABILITY_PATH=${failure.path}`,
    `  request: ${JSON.stringify(failure.request).slice(0, 2_000)}`,
    `  response: ${JSON.stringify(failure.response ?? null).slice(0, 2_000)}`,
  ].join('\n')
}
