/**
 * Overhead cases: a hello route through `app.inject`, in ops per CPU-second. run.ts runs each round
 * in a fresh child process: light-my-request 6.8 on Node 20 keeps every injected response alive
 * (~9 KB each), so a long-lived process slows down as its heap grows.
 */
import { weftBinding } from '@weft/binding'
import Fastify, { type FastifyInstance } from 'fastify'
import { Bench } from 'tinybench'
import { handle, weftContext } from '../src/index.js'

export const OVERHEAD_CASES = [
  'bare Fastify',
  '@weft/binding only',
  'weftContext registered',
  'handle()',
  'request.ctx',
] as const
export type OverheadCase = (typeof OVERHEAD_CASES)[number]

async function build(name: OverheadCase): Promise<FastifyInstance> {
  const app = Fastify()
  if (name === '@weft/binding only') await app.register(weftBinding)
  else if (name !== 'bare Fastify') await app.register(weftContext)
  if (name === 'handle()')
    app.get(
      '/',
      handle((c) => c.sendString('hello')),
    )
  else if (name === 'request.ctx') app.get('/', async (request) => (request.ctx!.path() === '/' ? 'hello' : 'other'))
  else app.get('/', async () => 'hello')
  await app.ready()
  return app
}

function cpuNow(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/**
 * Runs `slices` short tinybench runs of every case, alternating the order, and returns each case's
 * samples (ops per CPU-second). Short interleaved slices spread JIT warm-up and heap growth evenly
 * over the cases instead of charging them to whichever runs first or last.
 */
export async function runOverheadRound(
  order: readonly OverheadCase[],
  slices: number,
  time: number,
): Promise<Record<string, number[]>> {
  const apps = new Map<OverheadCase, FastifyInstance>()
  for (const name of order) apps.set(name, await build(name))
  const samples: Record<string, number[]> = Object.fromEntries(order.map((name) => [name, []]))
  for (let slice = 0; slice < slices; slice++) {
    const bench = new Bench({ time, warmupTime: slice === 0 ? time * 4 : time / 4, now: cpuNow })
    for (const name of slice % 2 === 0 ? order : [...order].reverse()) {
      const app = apps.get(name) as FastifyInstance
      bench.add(name, () => app.inject('/'))
    }
    await bench.warmup()
    await bench.run()
    for (const task of bench.tasks) samples[task.name]?.push(task.result?.hz ?? 0)
  }
  return samples
}

if (process.argv[2] === 'round') {
  const order = JSON.parse(process.argv[3] ?? '[]') as OverheadCase[]
  const [slices = 10, time = 30] = process.argv.slice(4).map(Number)
  process.stdout.write(JSON.stringify(await runOverheadRound(order, slices, time)))
}
