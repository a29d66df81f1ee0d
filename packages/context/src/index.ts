export type { ClearCookieOptions, Cookie, CookieSameSite } from './cookies.js'
export { Ctx } from './ctx.js'
export type { RouteInfo } from './ctx-base.js'
export { ctx } from './ctx-slot.js'
export {
  BadEncodingError,
  CtxUnavailableError,
  FileNotFoundError,
  ForbiddenPathError,
  InvalidHeaderError,
  InvalidParamError,
  MissingFileError,
  NoStorageError,
  NoViewsError,
  RangeMalformedError,
  RangeNotSatisfiableError,
  RangeUnitError,
  RestartLoopError,
  RestartNotFoundError,
  RouteNotFoundError,
  RouteParamMissingError,
  UnsupportedEncodingError,
} from './errors.js'
export { type Handler, handle, type WeftHandler } from './handle.js'
export type { Storage, StructValidator, ViewEngine, WeftContextOptions } from './options.js'
export { weftContext } from './plugin.js'
export type { Range } from './range.js'
export type { ClientHelloInfo } from './request-info.js'
export { routeMethods } from './route-methods.js'
export type { RouteURLParams } from './routes.js'
