import { publicUserFields } from '@weft/api-shared/schemas/public-user'
import { passwordRule, textRules } from '@weft/api-shared/schemas/rules'
import { Type } from 'typebox'

const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  pattern: textRules.email.pattern,
  description: 'an email address such as name@example.com; surrounding spaces are trimmed and it is lower-cased',
})
/** 8 to 72 bytes: the schema counts characters, so the byte limit is said in words and checked after binding. */
const Password = Type.String({ minLength: 8, maxLength: 72, description: passwordRule })
const Username = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: textRules.username.pattern,
  description: 'letters, digits, ".", "_" and "-"; unique whatever the case',
})

export const RegisterBody = Type.Object(
  { username: Username, email: Email, password: Password },
  { additionalProperties: false },
)

export const LoginBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
)

/** Only these fields are updatable; `current_password` is required to change the email or the password. */
export const UpdateUserBody = Type.Object(
  {
    username: Type.Optional(Username),
    email: Type.Optional(Email),
    password: Type.Optional(Password),
    current_password: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1024, description: 'needed to change the email or the password' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
)

/** Deleting the account needs the password: an access token alone (a stolen one) cannot. */
export const DeleteUserBody = Type.Object(
  { current_password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
)

export const RefreshBody = Type.Object(
  { refresh_token: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
)

/** A user as the API shows it, never the password hash (`#/components/schemas/User`). */
export const UserSchema = Type.Object(publicUserFields, { $id: 'User' })

/** What login and refresh return (`#/components/schemas/TokenPair`). */
export const TokenPairSchema = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'seconds until access_token expires' }),
    refresh_token: Type.String(),
  },
  { $id: 'TokenPair' },
)
