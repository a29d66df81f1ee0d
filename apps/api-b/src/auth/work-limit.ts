import * as shared from '@weft/api-shared/auth/work-limit'
import { unavailable } from '../http/errors.js'

export type { WorkLimit } from '@weft/api-shared/auth/work-limit'

/** The bound on password-hashing work (`@weft/api-shared`); a full queue answers 503 UNAVAILABLE, retry in 1 s. */
export const createWorkLimit = (concurrency: number, maxWaiting: number) =>
  shared.createWorkLimit(concurrency, maxWaiting, () =>
    unavailable(1, 'too many password checks in progress; retry in 1 s'),
  )
