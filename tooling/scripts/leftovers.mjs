// What a test run may leave behind: processes it started and `weft-*` folders in the temp folder.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'

/** The `weft-*` entries of the temp folder. */
export function tempEntries() {
  return new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('weft-')))
}

/**
 * Processes whose environment carries `marker` (`NAME=value`): every process a run started inherits it,
 * whoever its parent is now. Linux's /proc tells; elsewhere none are found.
 */
export function processesMarked(marker) {
  if (!existsSync('/proc')) return []
  const found = []
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker)) continue
      const command = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim()
      found.push({ pid: Number(pid), command })
    } catch {
      // gone, or not ours to read
    }
  }
  return found
}
