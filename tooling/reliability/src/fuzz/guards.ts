import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

const guarded: readonly [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
]

/**
 * Snapshots the built-in prototypes and returns a check that lists any property added, removed or
 * replaced since: prototype pollution shows up here even when no response reveals it.
 */
export function prototypeGuard(): () => string[] {
  const snapshot = guarded.map(([name, proto]) => {
    const descriptors = Object.getOwnPropertyDescriptors(proto) as Record<PropertyKey, PropertyDescriptor>
    const keys = Reflect.ownKeys(proto)
    return { name, proto, keys, descriptors }
  })
  return () => {
    const problems: string[] = []
    for (const { name, proto, keys, descriptors } of snapshot) {
      const now = Reflect.ownKeys(proto)
      if (now.length !== keys.length) {
        const added = now.filter((k) => !keys.includes(k)).map(String)
        problems.push(`${name} changed: added ${JSON.stringify(added)}`)
        continue
      }
      for (const key of keys) {
        const before = descriptors[key as string]
        const after = Object.getOwnPropertyDescriptor(proto, key)
        if (!before || !after || before.value !== after.value || before.get !== after.get || before.set !== after.set) {
          problems.push(`${name}.${String(key)} was replaced`)
        }
      }
    }
    // A for-in over a fresh object sees enumerable keys added anywhere up the chain.
    for (const key in {}) problems.push(`{} inherits an enumerable "${key}"`)
    return problems
  }
}

let gc: (() => void) | undefined

/**
 * Heap in use once the process has settled, in bytes: after `settleMs` of idleness (timers of the
 * requests just served fire and let go of what they hold) and two full garbage collections. What is
 * left is what the process keeps. Exposes `gc` at run time when needed.
 */
export async function settledHeap(settleMs = 2_000): Promise<number> {
  if (!gc) {
    setFlagsFromString('--expose-gc')
    gc = runInNewContext('gc') as () => void
  }
  await new Promise((resolve) => setTimeout(resolve, settleMs))
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

/** Counts uncaught exceptions and unhandled rejections while `fn` runs. */
export async function countUncaught<T>(fn: () => Promise<T>): Promise<{ result: T; uncaught: string[] }> {
  const uncaught: string[] = []
  const onError = (error: unknown) => {
    uncaught.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error))
  }
  process.on('uncaughtException', onError)
  process.on('unhandledRejection', onError)
  try {
    return { result: await fn(), uncaught }
  } finally {
    process.off('uncaughtException', onError)
    process.off('unhandledRejection', onError)
  }
}
