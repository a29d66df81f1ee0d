/**
 * `BENCH_PROFILE=1 pnpm --filter @weft/binding bench`: instead of measuring, runs each route task
 * for a few seconds under the V8 CPU profiler, writes `<tmpdir>/weft-binding-<task>.cpuprofile`
 * (open it in Chrome DevTools) and prints the functions with the most self time.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

type Frame = { functionName: string; url: string; lineNumber: number }
type Profile = { nodes: { id: number; callFrame: Frame }[]; samples: number[] }

export async function profileTasks(tasks: Record<string, () => unknown>, seconds = 3): Promise<void> {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  for (const [name, task] of Object.entries(tasks)) {
    await session.post('Profiler.start')
    const end = Date.now() + seconds * 1000
    while (Date.now() < end) await task()
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile }
    const file = join(tmpdir(), `weft-binding-${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`)
    writeFileSync(file, JSON.stringify(profile))
    console.log(`\n${name} → ${file}`)
    for (const [frame, share] of topSelfTime(profile, 15)) console.log(`${(share * 100).toFixed(1)}%  ${frame}`)
  }
  session.disconnect()
}

function topSelfTime(profile: Profile, count: number): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]))
  const self = new Map<string, number>()
  for (const id of profile.samples) {
    const f = byId.get(id)
    if (f === undefined) continue
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`
    self.set(key, (self.get(key) ?? 0) + 1)
  }
  const total = profile.samples.length || 1
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([k, v]) => [k, v / total])
}
