import { connectionCodes, databaseErrors } from '@weft/api-shared/db/errors'

/**
 * API A's reading of database errors (`@weft/api-shared/db/errors`): besides class 08 (connection exception),
 * 57P01–57P03 (shutdown, crash, starting up), 57014 (statement timeout), 55P03 (lock timeout) and 53300 (too
 * many connections) mean "not there right now", answered 503.
 */
export const { uniqueViolation, foreignKeyViolation, databaseUnavailable, invalidValue, loggableError } =
  databaseErrors({
    depth: 5,
    connectionCodes,
    unavailableSqlState: /^(08|(57P01|57P02|57P03|57014|55P03|53300)$)/,
    framesWithoutStack: undefined,
  })
