// Loaded with `--import` into an API server the load test starts (never into the apps themselves).
// On the message 'held-memory' over the IPC channel it answers what the process still holds after
// V8's most thorough collection. A leak is what survives that, not where the saw-tooth of RSS happens
// to be when it is read.
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeHeapSnapshot } from 'node:v8'

if (typeof process.send !== 'function') throw new Error('the held-memory probe needs an IPC channel')

// The channel must not keep the server alive once it has closed for a graceful shutdown.
process.channel?.unref()

process.on('message', (message) => {
  if (message !== 'held-memory') return
  // A heap snapshot starts with the collection V8 keeps for the last resort (several rounds, caches
  // cleared). A plain full GC (`gc()`) leaves whatever happens to be cached at that moment: measured on
  // API A after the same load, 39 to 63 MiB from one reading to the next, 38.5 ± 0.3 MiB this way.
  // Writing the snapshot takes about two seconds for a 40 MiB heap; only its collection is wanted.
  rmSync(writeHeapSnapshot(join(tmpdir(), `weft-held-memory-${process.pid}.heapsnapshot`)))
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage()
  process.send?.({ kind: 'held-memory', rss, heapUsed, external, arrayBuffers })
})
