import { connectionCodes, databaseErrors } from '@weft/api-shared/db/errors'

/**
 * API B's reading of database errors: besides class 08, all of class 53 (insufficient resources), 57P01–57P03
 * (shutdown, crash, starting up) and 57014 (statement timeout) mean "cannot serve now", answered 503.
 */
export const {
  databaseUnavailable: isDatabaseUnavailable,
  invalidValue: isInvalidValue,
  uniqueViolation: violatedUniqueConstraint,
  loggableError,
} = databaseErrors({
  depth: 8,
  connectionCodes: [...connectionCodes, 'ENETUNREACH'],
  unavailableSqlState: /^(08|53|(57P01|57P02|57P03|57014)$)/,
  framesWithoutStack: [],
})
