import { readdirSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'

/** Everything one run of the suite measured, as written to `bench/reliability.json`. */
export interface ReliabilityReport {
  generated_at: string
  /** `full` or `short`, with what a partial or resized run redid. */
  mode: string
  environment: { node: string; cpus: number; cpu_model: string; platform: string }
  /** Sections by name (`fuzz`, `load`, `faults`, `auth`, `shutdown`), each keyed by target. */
  sections: Record<string, Record<string, unknown>>
}

/** Reads the figure files the test files wrote and nests them by their path. */
export function mergeFigures(dir: string, mode: string): ReliabilityReport {
  const sections: Record<string, Record<string, unknown>> = {}
  const files = readdirSync(dir, { withFileTypes: true }).filter((f) => f.isFile() && f.name.endsWith('.json'))
  for (const file of files.map((f) => f.name).sort()) {
    const { path, value } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { path: string[]; value: unknown }
    const [section, ...rest] = path
    if (section === undefined) continue
    if (!sections[section]) sections[section] = {}
    let node = sections[section]
    for (const [index, key] of rest.entries()) {
      if (index === rest.length - 1) {
        node[key] = value
      } else {
        if (!node[key]) node[key] = {}
        node = node[key] as Record<string, unknown>
      }
    }
    if (rest.length === 0) Object.assign(node, value)
  }
  return {
    generated_at: new Date().toISOString(),
    mode,
    environment: {
      node: process.version,
      cpus: cpus().length,
      cpu_model: cpus()[0]?.model ?? 'unknown',
      platform: `${process.platform}-${process.arch}`,
    },
    sections,
  }
}
