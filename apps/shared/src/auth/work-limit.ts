/**
 * Runs at most `concurrency` tasks at once, the others waiting in arrival order; more than `maxWaiting`
 * waiting tasks fail with the error `full` makes (the APIs' 503). Bounds the scrypt work (32 MiB and ~100 ms of a libuv thread each) so a burst
 * of password checks cannot take every thread and starve other requests (or other users' logins).
 */
export interface WorkLimit {
  run<T>(task: () => Promise<T>): Promise<T>
}

export function createWorkLimit(concurrency: number, maxWaiting: number, full: () => Error): WorkLimit {
  let running = 0
  const waiting: (() => void)[] = []
  const release = () => {
    const next = waiting.shift()
    if (next) next()
    else running--
  }
  return {
    async run(task) {
      if (running >= concurrency) {
        if (waiting.length >= maxWaiting) throw full()
        // The slot is handed over by `release` without being freed, so no newcomer can overtake.
        await new Promise<void>((resolve) => waiting.push(resolve))
      } else {
        running++
      }
      try {
        return await task()
      } finally {
        release()
      }
    },
  }
}
