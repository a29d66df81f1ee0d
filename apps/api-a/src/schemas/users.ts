import { Type } from 'typebox'

/** Emails are trimmed and lower-cased before storage; this only asks for one `@` with text around it. */
const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^\\s*[^\\s@]+@[^\\s@]+\\s*$' })
/** 8 to 72 bytes (checked again in bytes after binding: the schema counts characters). */
const Password = Type.String({ minLength: 8, maxLength: 72 })
const Username = Type.String({ minLength: 3, maxLength: 32, pattern: '^[A-Za-z0-9_.-]+$' })

export const RegisterBody = Type.Object(
  { username: Username, email: Email, password: Password },
  { additionalProperties: false },
)

export const LoginBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
)

/** Only these fields are updatable; `current_password` is required to change the password. */
export const UpdateUserBody = Type.Object(
  {
    username: Type.Optional(Username),
    email: Type.Optional(Email),
    password: Type.Optional(Password),
    current_password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  },
  { additionalProperties: false, minProperties: 1 },
)

export const RefreshBody = Type.Object(
  { refresh_token: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
)

/** A user as the API shows it: never the password hash. */
export const PublicUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})

export const TokenPairSchema = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'seconds until access_token expires' }),
  refresh_token: Type.String(),
})
