import { InvalidStatusError } from './errors.js'

// Reason phrases `sendStatus()` sends as the body: Fiber's table (RFC 9110 wording where Fiber
// uses it; Node's STATUS_CODES differs on a few, e.g. 413, 414, 416, 418, and knows more codes).
const STATUS_TEXT: Record<number, string> = {
  100: 'Continue',
  101: 'Switching Protocols',
  102: 'Processing',
  103: 'Early Hints',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  207: 'Multi-Status',
  208: 'Already Reported',
  226: 'IM Used',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  305: 'Use Proxy',
  306: 'Switch Proxy',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Request Entity Too Large',
  414: 'Request URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Requested Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  510: 'Not Extended',
  511: 'Network Authentication Required',
}

/** The reason phrase of a status; `''` for codes without one (`299`). */
export function statusText(code: number): string {
  return STATUS_TEXT[code] ?? ''
}

/** True for statuses whose responses never carry content: 1xx, 204, 205, 304 (RFC 9110). */
export function statusForbidsBody(code: number): boolean {
  return (code >= 100 && code < 200) || code === 204 || code === 205 || code === 304
}

/** Refuses a status that is not an integer from 100 to 599 (a programming error: 500 `WEFT_INVALID_STATUS`). */
export function checkStatus(code: number): number {
  if (!Number.isInteger(code) || code < 100 || code > 599) throw new InvalidStatusError(String(code).slice(0, 32))
  return code
}
