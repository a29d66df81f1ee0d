export { Binder, type BindOptions, bind } from './binder.js'
export type { BindingSourceList, SourceName } from './binding-source.js'
export { bodyBytes, bodyBytesDecoded } from './body-bytes.js'
export type { BodyTextRules } from './body-text.js'
export {
  type BinaryDecoder,
  type BodyDecoder,
  type CustomBinder,
  type MultipartLimits,
  type ParserConfig,
  type ParserType,
  type StructValidator,
  setBodyDecoder,
  setParserDecoder,
} from './config.js'

export { registerCustomBinder } from './custom-binders.js'

export {
  BadRequestError,
  BindError,
  BindingSetupError,
  BindSource,
  InvalidUtf8Error,
  NestingTooDeepError,
  UnsupportedBodyEncodingError,
  UnsupportedMediaTypeError,
  ValidationError,
  type ValidationIssue,
} from './errors.js'
export type { RawMap } from './map-types.js'
export { type MultipartForm, multipartForm } from './multipart.js'
export {
  BodyTooLargeError,
  FieldTooLargeError,
  MalformedMultipartError,
  type MultipartLimitCode,
  MultipartLimitError,
} from './multipart-errors.js'
export type { PartFilter } from './multipart-read.js'
export { type DocumentedPart, documentedSchema, type SwaggerTransformInput, weftSwaggerTransform } from './openapi.js'
export { type WeftBindingOptions, weftBinding } from './plugin.js'
export { keepsBodyBytes } from './raw-bodies.js'
export { requestCompanion, setRequestCompanion } from './request-state.js'
export { type RouteRequest, type RouteSchemaParts, routeRequest } from './route-request.js'
export type { AjvOptions, RouteSchemasMode } from './route-schemas.js'
export { FileField, type FileHeader } from './schema.js'
export { parseCookieHeader } from './sources.js'
export type { WeftTypeProvider } from './type-provider.js'
export { hasWeftKeywords, weftKeywords } from './weft-keywords.js'
