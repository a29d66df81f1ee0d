import type { Converter } from './convert.js'

/** Whether a parsed value has the scalar type a plan wants. */
export type Check = (value: unknown) => boolean

/** How a parsed body's value is read: the schema, compiled once per schema. */
export type TreePlan =
  | { kind: 'object'; props: PropPlan[]; keys: Set<string> }
  | { kind: 'array'; items: TreePlan | undefined }
  | { kind: 'scalar'; type: string; check: Check; convert: Converter; expected: string }
  | { kind: 'any' }

export type PropPlan = {
  prop: string
  key: string
  plan: TreePlan
  hasDefault: boolean
  defaultValue: unknown
}
