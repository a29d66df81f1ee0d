import { success } from '@weft/api-shared/http/envelope'
import { SuccessEnvelopeSchema } from '@weft/api-shared/schemas/envelope'
import { routeRequest, setParserDecoder } from '@weft/binding'
import { handle } from '@weft/context'
import { and, eq } from 'drizzle-orm'
import type { FastifyPluginAsync } from 'fastify'
import { Type } from 'typebox'
import { requirePrincipal } from '../auth/authenticate.js'
import type { Database } from '../db/client.js'
import { products } from '../db/schema.js'
import { forbidden, notFound } from '../http/errors.js'
import { integerQuery } from '../http/query-integers.js'
import { IdParams } from '../schemas/common.js'
import { CreateProductBody, ListProductsQuery } from '../schemas/products.js'
import { bodyErrors, idErrors, responses, serverErrors, tokenErrors } from '../schemas/responses.js'
import { listProducts } from './product-list.js'
import { publicProduct } from './views.js'

export interface ProductRoutesOptions {
  db: Database
  /** Keys of cursor tokens (a tampered cursor is a 400): the first signs, the others are still accepted. */
  cursorSecrets: readonly string[]
}

const secured = [{ bearerAuth: [] }]
/** The bound parts of the routes' schemas, for `routeRequest()` in the handlers. */
const byId = { params: IdParams }
const created = { body: CreateProductBody }
const ProductEnvelope = SuccessEnvelopeSchema(Type.Ref('Product'))
const ProductListEnvelope = SuccessEnvelopeSchema(
  Type.Array(Type.Ref('Product')),
  Type.Object({ pagination: Type.Ref('Pagination') }),
)

/**
 * `/api/products`: public list and read; create and delete with a token (owner only). The route schemas bind
 * the body and id before the handlers, @weft/context chains: `c.status()`/`c.location()` shape the reply.
 */
export const productRoutes: FastifyPluginAsync<ProductRoutesOptions> = async (app, { db, cursorSecrets }) => {
  const list = listProducts(db, cursorSecrets)

  // The list reads only the parameters it knows: others are ignored (a link carrying tracking parameters still
  // lists), while every other route refuses unknown keys (the app's decoder setting); so it has its own scope.
  await app.register(async (lenient) => {
    setParserDecoder(lenient, { ignoreUnknownKeys: true })
    lenient.get(
      '/api/products',
      {
        // Values that are not integers are refused before the pagination hook, which clamps the integers;
        // Fastify then validates the query against its schema, as on every other route.
        onRequest: [integerQuery(['page', 'limit', 'offset']), list.hook],
        schema: {
          operationId: 'listProducts',
          tags: ['products'],
          summary: 'List products (page/limit/offset, sort, cursor)',
          description:
            'Page, limit and offset are integers in decimal digits (an optional sign): any integer is accepted and ' +
            'clamped to what the server serves (see each parameter), and `meta.pagination` says which values were ' +
            'applied. Anything else (`abc`, `1.5`, `1e3`, an empty value, a parameter given twice) is a 400 ' +
            '`VALIDATION_FAILED` whose `errors[]` names the parameter. Parameters not listed here and sort fields ' +
            'that are not allowed are ignored.',
          security: [],
          querystring: ListProductsQuery,
          response: responses(
            { 200: { description: 'a page of products and how it was cut', body: ProductListEnvelope } },
            ['VALIDATION_FAILED', 'INVALID_CURSOR', ...serverErrors],
          ),
        },
      },
      async (request) => list.handler(request),
    )
  })

  app.get(
    '/api/products/:id',
    {
      schema: {
        operationId: 'getProduct',
        tags: ['products'],
        summary: 'Read a product',
        security: [],
        params: IdParams,
        response: responses({ 200: { description: 'the product', body: ProductEnvelope } }, [
          ...idErrors,
          ...serverErrors,
        ]),
      },
    },
    handle(async (c) => {
      const { id } = routeRequest(byId, c).params
      const [row] = await db.select().from(products).where(eq(products.id, id))
      if (!row) throw notFound(`product ${id} not found`)
      return success('product found', publicProduct(row))
    }),
  )

  app.post(
    '/api/products',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'createProduct',
        tags: ['products'],
        summary: 'Create a product you own',
        security: secured,
        body: CreateProductBody,
        response: responses(
          {
            201: {
              description: 'the product is created; `Location` is its path',
              body: ProductEnvelope,
              headers: ['location'],
            },
          },
          [...tokenErrors, ...bodyErrors, 'CONFLICT', ...serverErrors],
        ),
      },
    },
    handle(async (c) => {
      const { body } = routeRequest(created, c)
      const [row] = await db
        .insert(products)
        .values({
          title: body.title,
          description: body.description ?? '',
          amount: body.amount,
          ownerId: requirePrincipal(c.request()).userId,
        })
        .returning()
      if (!row) throw new Error('insert returned no row')
      c.status(201).location(`/api/products/${row.id}`)
      return success('product created', publicProduct(row))
    }),
  )

  app.delete(
    '/api/products/:id',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'deleteProduct',
        tags: ['products'],
        summary: 'Delete a product you own',
        security: secured,
        params: IdParams,
        response: responses(
          { 200: { description: 'the product is deleted; `data` is null', body: SuccessEnvelopeSchema(Type.Null()) } },
          [...tokenErrors, ...idErrors, 'FORBIDDEN', ...bodyErrors, ...serverErrors],
        ),
      },
    },
    handle(async (c) => {
      const { id } = routeRequest(byId, c).params
      const owner = requirePrincipal(c.request()).userId
      const deleted = await db
        .delete(products)
        .where(and(eq(products.id, id), eq(products.ownerId, owner)))
        .returning({ id: products.id })
      if (deleted.length === 0) {
        const [exists] = await db.select({ id: products.id }).from(products).where(eq(products.id, id))
        if (exists) throw forbidden('only the owner may delete this product')
        throw notFound(`product ${id} not found`)
      }
      return success('product deleted', null)
    }),
  )
}
