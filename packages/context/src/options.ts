import type { WeftBindingOptions } from '@weft/binding'
import type { NO_TRUST, TrustFn } from './proxy-trust.js'

/**
 * A template engine for `c.render()`.
 *
 * @example
 * ```ts
 * const views: ViewEngine = { render: (name, vars) => `<h1>${String(vars.title)}</h1>` }
 * ```
 */
export interface ViewEngine {
  /** Renders the view `name` with `vars`, wrapped in `layouts` (outermost last). */
  render(name: string, vars: Record<string, unknown>, layouts: string[]): string | Promise<string>
}

/**
 * An external key/value store for `c.saveFileToStorage()` (Fiber's Storage interface).
 *
 * @example
 * ```ts
 * const memory = new Map<string, Buffer>()
 * const storage: Storage = { set: (key, value) => void memory.set(key, value) }
 * ```
 */
export interface Storage {
  /** Stores `value` under `key`; `ttlMs` of 0 or undefined means no expiry. */
  set(key: string, value: Buffer, ttlMs?: number): unknown
}

/** Validates a bound value after binding (same shape as `@weft/binding`'s `StructValidator`). */
export interface StructValidator {
  /** Throws (or rejects) when `out` does not satisfy `schema`. */
  validate(out: unknown, schema: unknown): void | Promise<void>
}

/**
 * Options of the `@weft/context` plugin (Fiber's app settings).
 *
 * @example
 * ```ts
 * await app.register(weftContext, { proxyHeader: 'X-Real-IP', subdomainOffset: 2, root: './public' })
 * ```
 */
export interface WeftContextOptions {
  /** Header whose value `c.ip()` returns (for example `X-Real-IP`); unset means the peer address. */
  proxyHeader?: string
  /** Labels of the host that are not subdomains, counted from the right (default 2). */
  subdomainOffset?: number
  /** Return copies of buffers (`body()`, `bodyRaw()`) so they may outlive the handler (default false). */
  immutable?: boolean
  /** Split comma-separated query values into arrays when binding (passed to `@weft/binding`). */
  enableSplittingOnParsers?: boolean
  /** Validator run after binding (passed to `@weft/binding`). */
  structValidator?: StructValidator
  /** Template engine used by `c.render()`. */
  views?: ViewEngine
  /** Default storage of `c.saveFileToStorage()`. */
  storage?: Storage
  /** Directory that `c.sendFile()`/`c.download()` paths are confined to (default `process.cwd()`). */
  root?: string
  /** How often one request may call `c.restartRouting()` before it fails (default 10). */
  maxRestarts?: number
  /**
   * Most bytes `c.body()` may decode a coded (gzip, deflate, br) body to; beyond it `c.body()`
   * throws a 413 `WEFT_BODY_TOO_LARGE`. Default: the route's `bodyLimit`.
   */
  bodyDecodeLimit?: number
  /** How many stacked Content-Encodings (`gzip, gzip`) `c.body()` undoes (default 1; more: 415). */
  maxContentCodings?: number
  /**
   * Options of the `@weft/binding` plugin that weftContext registers (`multipart`,
   * `multipartLimits`, `emptyJsonBody`, `customBinders`...). Given in a child scope, they are that
   * scope's own.
   *
   * @example
   * ```ts
   * await app.register(weftContext, { binding: { multipartLimits: { fileSize: 1_000_000 } } })
   * ```
   */
  binding?: WeftBindingOptions
  /**
   * Whether to decorate `request.ctx` (default true). `false` leaves the name to the app or another
   * plugin; the `Ctx` is then reached through `handle()` or `ctx(request, reply)`.
   */
  decorateRequest?: boolean
}

/** Options with their defaults filled in. */
export interface ResolvedOptions {
  proxyHeader: string | undefined
  subdomainOffset: number
  immutable: boolean
  views: ViewEngine | undefined
  storage: Storage | undefined
  root: string
  maxRestarts: number
  bodyDecodeLimit: number | undefined
  maxContentCodings: number
  /** The app's `trustProxy`, compiled when the plugin is registered (`undefined`: not known). */
  trust: TrustFn | typeof NO_TRUST | undefined
}

/** Fills in the defaults of the plugin options. */
export function resolveOptions(options: WeftContextOptions = {}): ResolvedOptions {
  return {
    proxyHeader: options.proxyHeader?.toLowerCase() || undefined,
    subdomainOffset: options.subdomainOffset ?? 2,
    immutable: options.immutable ?? false,
    views: options.views,
    storage: options.storage,
    root: options.root ?? process.cwd(),
    maxRestarts: options.maxRestarts ?? 10,
    bodyDecodeLimit: options.bodyDecodeLimit,
    maxContentCodings: options.maxContentCodings ?? 1,
    trust: undefined,
  }
}

/** Defaults used when `handle()`/`ctx()` run without the plugin registered. */
export const defaultOptions: ResolvedOptions = resolveOptions()
