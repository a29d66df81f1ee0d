import { maxBodyDepth } from './binary-walk.js'
import { NestingTooDeepError } from './errors.js'

/**
 * Bodies shorter than this are parsed whatever their nesting: V8's `JSON.parse` costs more than
 * linear time in the depth of its input (a 1 MiB body of nested arrays took 0.4 s where the same
 * bytes as a flat array take milliseconds), but below this size the worst case costs about 2 ms.
 */
const scanFrom = 16 * 1024

/**
 * Throws a {@link NestingTooDeepError} when `text`, a JSON text of at least 16 KiB, opens more
 * than {@link maxBodyDepth} arrays and objects in one another. One pass over the characters,
 * skipping strings; the text need not be valid JSON (the parser says what else is wrong).
 */
export function checkJsonDepth(text: string): void {
  if (text.length < scanFrom) return
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x22) {
      // a string: to its closing quote, past escaped characters
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i)
        if (inner === 0x5c) i++
        else if (inner === 0x22) break
      }
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > maxBodyDepth)
        throw new NestingTooDeepError(`the JSON body is nested more than ${maxBodyDepth} levels deep`)
    } else if (code === 0x5d || code === 0x7d) depth--
  }
}
