import type { ObjectPlan } from './plan.js'
import { type FileHeader, setProp } from './schema.js'

/**
 * Puts uploaded files on the `FileField()` fields of `out`: the first file sent under the field's
 * key (matched case-insensitively), or all of them for `Type.Array(FileField())`.
 */
export function bindFiles(plan: ObjectPlan, files: Record<string, FileHeader[]>, out: Record<string, unknown>): void {
  if (plan.fileFields.length === 0) return
  let lower: Map<string, FileHeader[]> | undefined
  for (const field of plan.fileFields) {
    let found = files[field.key]
    if (found === undefined) {
      lower ??= new Map(Object.entries(files).map(([name, list]) => [name.toLowerCase(), list]))
      found = lower.get(field.key.toLowerCase())
    }
    if (found === undefined || found.length === 0) continue
    setProp(out, field.prop, field.shape === 'file' ? found[0] : found.slice())
  }
}
