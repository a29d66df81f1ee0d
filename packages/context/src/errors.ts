import createError from '@fastify/error'

/** A route parameter read with `paramsInt` is not a whole decimal number. */
export const InvalidParamError = createError<[string, string]>(
  'WEFT_INVALID_PARAM',
  "Route parameter '%s' must be an integer, got '%s'",
  400,
)

/** The Range header uses another unit than `bytes`. */
export const RangeUnitError = createError<[string]>(
  'WEFT_RANGE_UNIT',
  "Range unit '%s' is not supported (only bytes)",
  400,
)

/** The Range header is malformed. */
export const RangeMalformedError = createError('WEFT_RANGE_MALFORMED', 'Range header is malformed', 400)

/** A conditional request (If-Match, If-Unmodified-Since) failed for the file sent. */
export const PreconditionFailedError = createError(
  'WEFT_PRECONDITION_FAILED',
  "The file does not meet the request's preconditions (If-Match or If-Unmodified-Since)",
  412,
)

/** No range of the Range header lies inside the resource. */
export const RangeNotSatisfiableError = createError<[number]>(
  'WEFT_RANGE_NOT_SATISFIABLE',
  'Range not satisfiable for a resource of %d bytes',
  416,
)

/** A header name or value handed to a writer contains CR, LF or another control character. */
export const InvalidHeaderError = createError<[string, string]>(
  'WEFT_INVALID_HEADER',
  "Header '%s' cannot be sent: %s",
  400,
)

/** Why a header value is refused, in the words of InvalidHeaderError's message. */
export const CONTROL_CHARACTERS =
  'it contains control characters or characters beyond Latin-1 (CR/LF are refused so headers cannot be split)'

/** A redirect target cannot be emitted so that browsers go where it points (see `encodeLocation`). */
export const InvalidRedirectError = createError(
  'WEFT_INVALID_REDIRECT',
  'Redirect location cannot be encoded without changing where browsers send it',
  400,
)

/** The request body uses a Content-Encoding `body()` cannot decode. */
export const UnsupportedEncodingError = createError<[string]>(
  'WEFT_UNSUPPORTED_ENCODING',
  "Content-Encoding '%s' is not supported",
  415,
)

/** The request body decodes to more bytes than the decode limit (route `bodyLimit` by default). */
export const DecodedBodyTooLargeError = createError<[number]>(
  'WEFT_BODY_TOO_LARGE',
  'Decoded request body exceeds the limit of %d bytes',
  413,
)

/** The request body uses a registered coding zlib cannot undo (`compress`), as Fiber answers it. */
export const EncodingNotImplementedError = createError<[string]>(
  'WEFT_ENCODING_NOT_IMPLEMENTED',
  "Content-Encoding '%s' is not implemented",
  501,
)

/** The request body carries more stacked Content-Encodings than `maxContentCodings` allows. */
export const StackedEncodingError = createError<[number, number]>(
  'WEFT_STACKED_ENCODING',
  'Request body has %d stacked content codings; at most %d allowed',
  415,
)

/** The compressed request body is corrupt. */
export const BadEncodingError = createError<[string]>('WEFT_BAD_ENCODING', "Request body is not valid '%s' data", 400)

/** `getRouteURL`/`redirectToRoute` got a name no route carries. */
export const RouteNotFoundError = createError<[string]>('WEFT_ROUTE_NOT_FOUND', "No route is named '%s'", 500)

/**
 * `getRouteURL`/`redirectToRoute` got the name of a route that another registration of weftContext
 * (a sibling scope's) sees, not this route's: names are looked up among the routes of one
 * registration and the scopes inside it.
 */
export const RouteInOtherScopeError = createError<[string]>(
  'WEFT_ROUTE_IN_OTHER_SCOPE',
  "Route '%s' is in a scope with its own registration of weftContext, which this route's registration does not see: register weftContext once, in a scope that holds both routes (the root), to name routes across scopes",
  500,
)

/** `request.ctx` is decorated already, by the app or another plugin, when weftContext is registered. */
export const CtxDecoratorTakenError = createError(
  'WEFT_CTX_DECORATOR_TAKEN',
  'request.ctx is decorated already (by the app or another plugin): weftContext gives each request its Ctx there. Rename that decorator, or pass { decorateRequest: false } to weftContext and reach the Ctx through handle() or ctx(request, reply)',
  500,
)

/** `getRouteURL`/`redirectToRoute` lacks a value for a required route parameter. */
export const RouteParamMissingError = createError<[string, string]>(
  'WEFT_ROUTE_PARAM_MISSING',
  "Route '%s' needs a value for parameter '%s'",
  500,
)

/**
 * `getRouteURL`/`redirectToRoute` got an empty string for a required route parameter: such values
 * come from the request (`?id=`), so it is the client's mistake, where a missing one is the app's.
 */
export const EmptyRouteParamError = createError<[string, string]>(
  'WEFT_EMPTY_ROUTE_PARAM',
  "Route '%s' needs a non-empty value for parameter '%s'",
  400,
)

/** A value for `getRouteURL`/`redirectToRoute` would make the URL leave the route (`//host`, `..`). */
export const InvalidRouteParamError = createError<[string]>(
  'WEFT_INVALID_ROUTE_PARAM',
  "A parameter value for route '%s' would make its URL point elsewhere ('//' or a '.'/'..' segment)",
  400,
)

/** `restartRouting()` ran more times than allowed for one request. */
export const RestartLoopError = createError<[number]>(
  'WEFT_RESTART_LOOP',
  'restartRouting() was called more than %d times for one request',
  508,
)

/**
 * `restartRouting()` cannot tell which hooks the new route runs (a Fastify that keeps them
 * elsewhere): it refuses rather than skip an auth hook.
 */
export const RestartHooksUnknownError = createError<[string, string]>(
  'WEFT_RESTART_HOOKS_UNKNOWN',
  'restartRouting() cannot find the hooks of route %s:%s, so it does not run it',
  500,
)

/** `restartRouting()` found no route for the (possibly overridden) method and path. */
export const RestartNotFoundError = createError<[string, string]>('WEFT_ROUTE_NO_MATCH', 'Route %s:%s not found', 404)

/** `sendFile`/`download` was asked for a path outside the configured root. */
export const ForbiddenPathError = createError<[string]>(
  'WEFT_FORBIDDEN_PATH',
  "Path '%s' is outside the file root",
  403,
)

/** `sendFile`/`download` got a path with a malformed percent escape (`%zz`). */
export const InvalidPathError = createError<[string]>(
  'WEFT_INVALID_PATH',
  "Path '%s' has a malformed percent escape",
  400,
)

/** `sendFile`/`download` found no file. */
export const FileNotFoundError = createError<[string]>('WEFT_FILE_NOT_FOUND', "File '%s' not found", 404)

/**
 * `xml()` got a key that is not an XML Name. A 400: such keys come from client data in practice
 * (server-written keys are constants and fail in development), and the response is refused
 * rather than emitted with injected markup.
 */
export const InvalidXmlNameError = createError<[string]>(
  'WEFT_INVALID_XML_NAME',
  "'%s' is not a valid XML element or attribute name",
  400,
)

/** A text `xml()` would write holds a character XML 1.0 does not allow (U+0001, a lone surrogate...). */
export const InvalidXmlTextError = createError<[string]>(
  'WEFT_INVALID_XML_TEXT',
  'The XML would hold a character XML does not allow (%s), which no XML parser reads',
  400,
)

/** `status()`/`sendStatus()` got something that is not an integer status code from 100 to 599. */
export const InvalidStatusError = createError<[string]>(
  'WEFT_INVALID_STATUS',
  "Status code '%s' is not an integer from 100 to 599",
  500,
)

/** A cookie option that only the app sets (never a client) has a value the option does not take. */
export const InvalidCookieOptionError = createError<[string, string]>(
  'WEFT_INVALID_COOKIE_OPTION',
  'Cookie option %s is not valid: %s',
  500,
)

/** `render` was called but the plugin has no `views` engine. */
export const NoViewsError = createError('WEFT_NO_VIEWS', 'render() needs the `views` option of weftContext', 500)

/** `saveFileToStorage` was called without a storage and the plugin has no `storage` option. */
export const NoStorageError = createError(
  'WEFT_NO_STORAGE',
  'saveFileToStorage() needs a storage argument or the `storage` option of weftContext',
  500,
)

/** `formFile` found no file under the key. */
export const MissingFileError = createError<[string]>('WEFT_MISSING_FILE', "No file was uploaded under '%s'", 400)

/** `request.ctx` was read before weftContext's `onRequest` hook ran, when the reply is not known yet. */
export const CtxUnavailableError = createError(
  'WEFT_CTX_UNAVAILABLE',
  'request.ctx is available once the onRequest hook of weftContext has run; use ctx(request, reply) in hooks that run before it',
  500,
)
