import type { BindingConfig } from './config.js'
import type { BindSource } from './errors.js'

/** A raw request map: query, form fields, headers, cookies or path params. */
export type RawMap = Record<string, string | string[] | undefined>

/** Values gathered under one key path before conversion. */
// children in a Map, not a null-prototype object: V8 keeps those in dictionary mode, and a for-in
// over one cost more than the rest of decoding a nested key
export type RawNode = { values: string[]; children: Map<string, RawNode> | undefined }

/** How one map source is decoded. */
export type MapOptions = {
  source: BindSource
  config: BindingConfig
  /** Keys match case-insensitively (query, header, cookie, form; not uri). */
  caseInsensitive: boolean
  /** Comma splitting into array fields (`enableSplittingOnParsers`; never for uri). */
  split: boolean
  /** Trim the items of split lists (header lists allow spaces after commas). */
  trim: boolean
  /** Fill absent fields from their `default` (off for the partial results of `all()`). */
  defaults: boolean
  /** Bracket keys are read (query and form): unbalanced brackets are an error, on any key. */
  brackets: boolean
}
