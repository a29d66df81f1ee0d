import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

/** One finding of `redocly lint`: the rule, its severity, and where in the document (a JSON pointer). */
export interface LintProblem {
  ruleId: string
  severity: 'error' | 'warn'
  message: string
  pointer: string
}

interface Report {
  problems: { ruleId: string; severity: LintProblem['severity']; message: string; location: { pointer: string }[] }[]
}

const cli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js')

/**
 * Lints an OpenAPI document with Redocly CLI's built-in `recommended` rules (`redocly lint --format=json`, the
 * document written to a temporary file) and returns every problem it reports.
 *
 * @example
 * const problems = await lintOpenApi(app.swagger())
 * expect(problems.filter((p) => p.severity === 'error')).toEqual([])
 */
export async function lintOpenApi(document: object): Promise<LintProblem[]> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-redocly-'))
  const file = join(dir, 'openapi.json')
  writeFileSync(file, JSON.stringify(document, null, 2))
  try {
    // Exits 1 when it finds errors: the report on stdout is the answer either way.
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--format=json'], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      if (!error.stdout) throw new Error(`redocly lint failed: ${error.stderr ?? String(error)}`)
      return { stdout: error.stdout }
    })
    const report = JSON.parse(stdout) as Report
    return report.problems.map((p) => ({
      ruleId: p.ruleId,
      severity: p.severity,
      message: p.message,
      pointer: p.location[0]?.pointer ?? '',
    }))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
