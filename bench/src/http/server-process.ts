import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { compileServers } from './compile-servers.js'

/** A benchmark server running in its own process. */
export interface ServerProcess {
  name: string
  pid: number
  /** `http://127.0.0.1:<port>` */
  origin: string
  /** Extra fields the server reported when ready (tokens, ids). */
  info: Record<string, unknown>
  /** Current and peak resident memory of the process, in MiB (from `/proc`). */
  memory(): { rssMiB: number; peakRssMiB: number }
  /** CPU time the process has used so far (user + system, every thread), in seconds. */
  cpuSeconds(): number
  stop(): Promise<void>
}

/** A server that could not start because what it needs has not landed. */
export interface Unavailable {
  name: string
  unavailable: string
}

export interface StartOptions {
  /** Core to pin the server to with `taskset` once it is ready (undefined: no pinning). Start-up
   *  may use every core, so two servers can start side by side. */
  core?: number | undefined
  env?: Record<string, string>
  /** Folder for `--cpu-prof` profiles of the server (`<dir>/<name>/`, one file per thread, the main
   *  thread's is `CPU.*.0.*.cpuprofile`), written when it stops. */
  profileDir?: string | undefined
  /** Milliseconds to wait for the READY line. */
  timeoutMs?: number
}

let serversDir: string | undefined

/**
 * Starts `src/servers/<script>.ts`, compiled to JavaScript and run on plain `node` against the built
 * packages (see `compileServers`), and resolves once it listens (or reports it cannot run).
 */
export function startServer(
  name: string,
  script: string,
  options: StartOptions = {},
): Promise<ServerProcess | Unavailable> {
  serversDir ??= compileServers()
  const nodeArgs: string[] = []
  if (options.profileDir) {
    // No fixed --cpu-prof-name: each thread writes its own file (the main thread's is `CPU.*.0.*`).
    nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${options.profileDir}/${name.replace(/[^\w.-]+/g, '_')}`)
  }
  // V8 decides early, per allocation site, whether to allocate objects straight in the old
  // generation ("pretenuring"). Under 1,000 requests in flight that decision flips at random: a
  // process that takes it spends ~6x the GC time for its whole life (~30 % more CPU per request
  // on the JSON body route), so two processes of the same server differed by 1.4x. Switched off
  // for every server alike; `BENCH_PRETENURING=1` keeps V8's default.
  if (process.env.BENCH_PRETENURING !== '1') nodeArgs.push('--no-allocation-site-pretenuring')
  // V8's memory reducer collects the heap of a process that has gone idle, and shrinks its young
  // generation. A server that idles ~8 s after start-up (waiting for its turn in the rounds) is
  // caught by it and stays that way under load: one such process scavenged 177 times where its
  // siblings scavenged ~63, and cost 84 µs per request where they cost 71 (bench/RESULTS.md). That
  // is the benchmark's idle time, not the server's code: switched off for every server alike;
  // `BENCH_MEMORY_REDUCER=1` keeps V8's default.
  if (process.env.BENCH_MEMORY_REDUCER !== '1') nodeArgs.push('--no-memory-reducer')
  // more node flags for every server, for experiments (`BENCH_SERVER_FLAGS=--trace-gc-nvp`)
  nodeArgs.push(...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean))
  nodeArgs.push(`${serversDir}${script}.js`)
  // The orchestrator is pinned to the load generator's core and children inherit that: widen the
  // child's mask to every core for start-up, then pin it to its own core once it is ready.
  const [command, args] =
    options.core === undefined
      ? [process.execPath, nodeArgs]
      : ['taskset', ['-c', `0-${availableParallelism() - 1}`, process.execPath, ...nodeArgs]]
  const child = spawn(command, args, {
    env: { ...process.env, NODE_ENV: 'production', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${name}: no READY line within ${options.timeoutMs ?? 60_000} ms\n${stderr}`))
    }, options.timeoutMs ?? 60_000)
    const onExit = (code: number | null) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited with ${code} before it was ready\n${stderr}`))
    }
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.once('exit', onExit)
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const line = stdout.split('\n').find((item) => item.startsWith('READY ') || item.startsWith('UNAVAILABLE '))
      if (!line) return
      clearTimeout(timer)
      child.off('exit', onExit)
      child.stdout.removeAllListeners('data')
      child.stdout.resume()
      if (line.startsWith('UNAVAILABLE ')) {
        resolve({ name, unavailable: line.slice('UNAVAILABLE '.length) })
        return
      }
      const info = JSON.parse(line.slice('READY '.length)) as Record<string, unknown> & { port: number }
      // -a: every thread of the process (V8 platform workers, libuv pool, tsx's loader thread).
      try {
        if (options.core !== undefined) {
          execFileSync('taskset', ['-a', '-p', '-c', String(options.core), String(child.pid)], { stdio: 'ignore' })
        }
      } catch (error) {
        child.kill('SIGKILL')
        reject(error)
        return
      }
      resolve(running(name, child, info))
    })
  })
}

function running(name: string, child: ChildProcess, info: Record<string, unknown> & { port: number }): ServerProcess {
  const pid = child.pid!
  return {
    name,
    pid,
    origin: `http://127.0.0.1:${info.port}`,
    info,
    memory: () => memoryOf(pid),
    cpuSeconds: () => cpuSecondsOf(pid),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        const force = setTimeout(() => child.kill('SIGKILL'), 15_000)
        child.once('exit', () => {
          clearTimeout(force)
          resolve()
        })
        child.kill('SIGTERM')
      }),
  }
}

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100

/**
 * CPU time of every thread of the process: the scheduler's nanoseconds (`schedstat` of each of `/proc/<pid>/task/`),
 * else `/proc/<pid>/stat`'s ticks of 10 ms, too coarse for a server that gets half a core for 1.5 s.
 */
function cpuSecondsOf(pid: number): number {
  try {
    let nanoseconds = 0
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0])
    }
    if (Number.isFinite(nanoseconds) && nanoseconds > 0) return nanoseconds / 1e9
  } catch {
    // no schedstat (a kernel without scheduler statistics): the ticks below
  }
  return ticksOf(pid)
}

function ticksOf(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces, hence the last ')'): utime is the 12th, stime the 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
  } catch {
    return Number.NaN
  }
}

function memoryOf(pid: number): { rssMiB: number; peakRssMiB: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN)
    return { rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024 }
  } catch {
    return { rssMiB: Number.NaN, peakRssMiB: Number.NaN }
  }
}

/** Whether a start result is a running server. */
export function isRunning(server: ServerProcess | Unavailable): server is ServerProcess {
  return !('unavailable' in server)
}
