import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const execFileAsync = promisify(execFile)

/** Runs a command, resolving with its output; rejects with stderr in the message when it fails. */
export async function run(file: string, args: readonly string[], options: { timeoutMs?: number } = {}) {
  try {
    return await execFileAsync(file, args, { timeout: options.timeoutMs ?? 60_000, encoding: 'utf8' })
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string }
    throw new Error(`${file} ${args.join(' ')} failed: ${stderr || stdout || String(error)}`)
  }
}

/** Resident set size of a process in bytes, from `/proc/<pid>/status` (Linux). */
export async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises')
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)
  if (!match?.[1]) throw new Error(`no VmRSS for process ${pid}`)
  return Number(match[1]) * 1024
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
