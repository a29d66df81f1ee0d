import { Type } from 'typebox'
import { MAX_ID } from './common.js'

export const CreateProductBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    amount: Type.Integer({ minimum: 0, maximum: MAX_ID }),
  },
  { additionalProperties: false },
)

export const ProductSchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  amount: Type.Integer(),
  owner_id: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})

/** Query of `GET /api/products` (read by @weft/pagination; documented here). */
export const ListProductsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  sort: Type.Optional(
    Type.String({ description: 'comma-separated fields of id,title,amount,created_at; "-" prefix for descending' }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'next_cursor of the previous page' })),
})
