import { responsesOf } from '@weft/api-shared/schemas/responses'
import { errorCatalogue } from '../http/errors.js'

export { bodyErrors, idErrors, serverErrors, tokenErrors } from '@weft/api-shared/schemas/responses'

/** A route's `response` schemas, in the words of this API's error catalogue (`@weft/api-shared`). */
export const responses = responsesOf(errorCatalogue)
