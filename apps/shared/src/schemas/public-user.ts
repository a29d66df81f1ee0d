import { Type } from 'typebox'

/** The fields of an account clients see (`publicUser()`): never the password hash nor anything token-related. */
export const publicUserFields = {
  id: Type.Integer(),
  username: Type.String(),
  email: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
}
