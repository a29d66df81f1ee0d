import type { HttpAnswer } from '../apps/http.js'
import { sleep } from '../process/exec.js'

/** One write as the client saw it. */
export interface WriteOutcome {
  startedAt: number
  endedAt: number
  /** HTTP status, or undefined when no answer came (network error or client timeout). */
  status?: number
  /** The created row's id, from a 2xx answer. */
  id?: number
  code?: string
  /** `Retry-After` header and the envelope's `retry_after`, on 503s. */
  retryAfterHeader?: string | null
  retryAfterBody?: unknown
  error?: string
}

export interface WriteLoad {
  /** Every write so far. */
  readonly outcomes: WriteOutcome[]
  /** Stops the workers and resolves when the writes in flight have settled. */
  stop(): Promise<WriteOutcome[]>
}

/**
 * A steady stream of writes from `workers` concurrent clients, each waiting `pauseMs` between writes.
 * `write(n)` sends the n-th write and resolves with the answer; ids of acknowledged rows come from
 * `data.id`.
 */
export function startWriteLoad(options: {
  workers: number
  pauseMs: number
  write: (n: number) => Promise<HttpAnswer>
}): WriteLoad {
  const outcomes: WriteOutcome[] = []
  let running = true
  let counter = 0
  const worker = async () => {
    while (running) {
      const startedAt = Date.now()
      const outcome: WriteOutcome = { startedAt, endedAt: startedAt }
      try {
        const answer = await options.write(counter++)
        outcome.status = answer.status
        if (answer.status >= 200 && answer.status < 300) outcome.id = (answer.body.data as { id?: number } | null)?.id
        if (typeof answer.body.code === 'string') outcome.code = answer.body.code
        if (answer.status === 503) {
          outcome.retryAfterHeader = answer.headers.get('retry-after')
          outcome.retryAfterBody = answer.body.retry_after
        }
      } catch (error) {
        outcome.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      }
      outcome.endedAt = Date.now()
      outcomes.push(outcome)
      await sleep(options.pauseMs)
    }
  }
  const all = Array.from({ length: options.workers }, worker)
  return {
    outcomes,
    async stop() {
      running = false
      await Promise.all(all)
      return outcomes
    },
  }
}

/** The figures of a fault scenario, condensed from the outcomes. */
export interface FaultFigures {
  writes: number
  acknowledged: number
  /** Acknowledged writes whose row is missing afterwards (must be 0). */
  lost: number
  statuses: Record<string, number>
  /** 503s lacking `Retry-After` (header or envelope field). */
  unavailableWithoutRetryAfter: number
  /** Writes that got no answer at all (network error or the client's bound). */
  unanswered: number
  unansweredErrors: string[]
  /** Slowest answer, milliseconds. */
  maxLatencyMs: number
  /** Answers slower than the bound: when they were sent (ms after the fault began), how long, what. */
  overBound: { sentAtMs: number; latencyMs: number; status: number | null }[]
  /** From the fault's end to the first acknowledged write sent after it (ms); null when none. */
  recoveryMs: number | null
}

/**
 * Condenses outcomes. `faultStartedAt`/`faultEndedAt` frame the fault, `found` holds the acknowledged ids
 * present in the database afterwards, `boundMs` is the longest acceptable answer time.
 */
export function summarize(
  outcomes: WriteOutcome[],
  faultStartedAt: number,
  faultEndedAt: number,
  found: ReadonlySet<number>,
  boundMs: number,
): FaultFigures {
  const statuses: Record<string, number> = {}
  for (const o of outcomes) {
    const key = o.status === undefined ? 'none' : String(o.status)
    statuses[key] = (statuses[key] ?? 0) + 1
  }
  const acked = outcomes.filter((o) => o.id !== undefined)
  const firstAfter = outcomes
    .filter((o) => o.id !== undefined && o.startedAt >= faultEndedAt)
    .sort((a, b) => a.endedAt - b.endedAt)[0]
  const unanswered = outcomes.filter((o) => o.status === undefined)
  return {
    writes: outcomes.length,
    acknowledged: acked.length,
    lost: acked.filter((o) => !found.has(o.id as number)).length,
    statuses,
    unavailableWithoutRetryAfter: outcomes.filter(
      (o) => o.status === 503 && (!o.retryAfterHeader || typeof o.retryAfterBody !== 'number'),
    ).length,
    unanswered: unanswered.length,
    unansweredErrors: [...new Set(unanswered.map((o) => o.error ?? 'unknown'))].slice(0, 5),
    maxLatencyMs: Math.max(0, ...outcomes.map((o) => o.endedAt - o.startedAt)),
    overBound: outcomes
      .filter((o) => o.endedAt - o.startedAt > boundMs)
      .map((o) => ({
        sentAtMs: o.startedAt - faultStartedAt,
        latencyMs: o.endedAt - o.startedAt,
        status: o.status ?? null,
      })),
    recoveryMs: firstAfter ? firstAfter.endedAt - faultEndedAt : null,
  }
}
