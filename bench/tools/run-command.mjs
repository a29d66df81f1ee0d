// Runs a command for the counting tools (instructions.mjs, route-profile.mjs).
import { spawn } from 'node:child_process'

/** Runs `command`, resolves to its stdout (rejects, with stderr, when it fails). */
export function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${command} exited ${code}\n${stderr}`)),
    )
  })
}
