/**
 * The text rules of the account fields, each with its wording for people: the schemas use the patterns, the
 * error handler says what a failed pattern asks for (never the pattern itself). Both example APIs state
 * the same rules.
 */
export const textRules = {
  /** Trimmed and lower-cased before use; one `@`, a dot in the domain, no spaces. */
  email: {
    pattern: '^\\s*[^\\s@]+@[^\\s@]+\\.[^\\s@]+\\s*$',
    message: 'must be an email address such as name@example.com',
  },
  username: {
    pattern: '^[A-Za-z0-9_.-]+$',
    message: 'may only contain letters, digits, ".", "_" and "-"',
  },
} as const

/** The wording of a failed `pattern`, by pattern. */
export const patternMessages: ReadonlyMap<string, string> = new Map(
  Object.values(textRules).map((rule) => [rule.pattern, rule.message]),
)

/**
 * Longest password in UTF-8 bytes (bcrypt's historical limit). JSON Schema counts characters, so the schema
 * says it in words and the handlers check it: a password of 72 characters or fewer can still be refused.
 */
export const MAX_PASSWORD_BYTES = 72

/** How the password rule reads in the OpenAPI document. */
export const passwordRule = `8 to 72 characters and at most ${MAX_PASSWORD_BYTES} bytes in UTF-8: a longer one (non-ASCII text counts 2 to 4 bytes a character) is answered 400 VALIDATION_FAILED, rule \`maxBytes\``
