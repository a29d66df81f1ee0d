import { execFileSync } from 'node:child_process'
import { availableParallelism, cpus, totalmem } from 'node:os'

/** Where and when the figures were measured. */
export interface MachineInfo {
  node: string
  v8: string
  platform: string
  cpuModel: string
  cpus: number
  memoryGiB: number
  date: string
  /** Server and load generator run on different cores (`taskset`), else share them. */
  pinning: boolean
}

/** Whether `taskset` exists and there are at least two cores to pin to. */
export function canPin(): boolean {
  if (availableParallelism() < 2) return false
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Describes this machine and process. */
export function machineInfo(): MachineInfo {
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${process.platform} ${process.arch}`,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cpus: availableParallelism(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    date: new Date().toISOString(),
    pinning: canPin(),
  }
}
