import { publicUserFields } from '@weft/api-shared/schemas/public-user'
import { passwordRule, textRules } from '@weft/api-shared/schemas/rules'
import { type Static, Type } from 'typebox'

/** Letters, digits, `_`, `.`, `-`; 3–32 characters. Unique regardless of case. */
const Username = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: textRules.username.pattern,
  description: 'letters, digits, ".", "_" and "-"; unique whatever the case',
  examples: ['ada_l'],
})

/** 8–72 characters: the schema counts characters, so the 72-byte limit is said in words and checked in code. */
const Password = Type.String({
  minLength: 8,
  maxLength: 72,
  description: passwordRule,
  examples: ['correct horse battery'],
})

/** An address with one `@` and a dot in the domain; surrounding spaces are trimmed and it is lower-cased. */
const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  pattern: textRules.email.pattern,
  description: 'an email address such as name@example.com; surrounding spaces are trimmed and it is lower-cased',
  examples: ['ada@example.com'],
})

/** `POST /api/user`: a new account. */
export const RegisterBody = Type.Object(
  { username: Username, password: Password, email: Email },
  { additionalProperties: false },
)
export type RegisterBody = Static<typeof RegisterBody>

/** `POST /api/auth/login`. The username may not hold control characters (no account's can). */
export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 256, pattern: '^[^\\u0000-\\u001f\\u007f]+$' }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
)
export type LoginBody = Static<typeof LoginBody>

/**
 * `PATCH /api/user/:id`: only these fields may change; at least one must be sent. Changing the
 * username (the login name) or the password needs `current_password` too (a stolen token alone cannot
 * lock the owner out).
 */
export const UpdateUserBody = Type.Object(
  {
    username: Type.Optional(Username),
    email: Type.Optional(Email),
    password: Type.Optional(Password),
    current_password: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateUserBody = Static<typeof UpdateUserBody>

/** `DELETE /api/user/:id`: the password, so a stolen access token alone cannot delete the account. */
export const DeleteUserBody = Type.Object(
  { current_password: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
)
export type DeleteUserBody = Static<typeof DeleteUserBody>

/** The `:id` of `/api/user/:id`: a positive 32-bit integer (the `serial` column's range). */
export const UserIdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'a positive 32-bit integer' }),
})
export type UserIdParams = Static<typeof UserIdParams>

/** A user as the API shows it: never the password hash nor the token version (`#/components/schemas/User`). */
export const PublicUser = Type.Object(publicUserFields, { additionalProperties: false, $id: 'User' })
export type PublicUser = Static<typeof PublicUser>

/** What login returns (`#/components/schemas/AccessToken`). */
export const AccessToken = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'seconds until the token expires' }),
  },
  { $id: 'AccessToken' },
)
export type AccessToken = Static<typeof AccessToken>
