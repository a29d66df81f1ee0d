import { type Account, call } from './client.js'

/** What a mixed load saw, as the client counts it. */
export interface LoadFigures {
  requests: number
  /** Answers that were not 2xx, or no answer at all, with the status (0: a network failure). */
  failures: { status: number; path: string }[]
  /** Ids of the products whose creation was acknowledged with 201. */
  acknowledged: number[]
  /** Requests answered per replica. */
  perReplica: Record<string, number>
}

/**
 * Runs `workers` loops of mixed reads and writes through HAProxy until `stop()` resolves: create a
 * product (a write), read it back, list a page. Every acknowledged write is remembered.
 */
export async function mixedLoad(base: string, account: Account, workers: number, until: Promise<void>) {
  const figures: LoadFigures = { requests: 0, failures: [], acknowledged: [], perReplica: {} }
  let done = false
  void until.then(() => {
    done = true
  })
  const record = (answer: Awaited<ReturnType<typeof call>>, path: string) => {
    figures.requests++
    figures.perReplica[answer.replica || '(none)'] = (figures.perReplica[answer.replica || '(none)'] ?? 0) + 1
    if (answer.status < 200 || answer.status >= 300) figures.failures.push({ status: answer.status, path })
  }
  const worker = async (w: number) => {
    for (let i = 0; !done; i++) {
      const created = await call(base, 'POST', '/api/products', {
        token: account.access,
        body: { title: `load ${w}-${i}`, amount: i },
      })
      record(created, 'POST /api/products')
      const id = (created.body?.data as { id?: number } | undefined)?.id
      if (created.status === 201 && id) {
        figures.acknowledged.push(id)
        record(await call(base, 'GET', `/api/products/${id}`), 'GET /api/products/:id')
      }
      record(await call(base, 'GET', '/api/products?limit=5'), 'GET /api/products')
    }
  }
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)))
  return figures
}
