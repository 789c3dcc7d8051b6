// Response models shared by the routes: the failure envelope and the objects
// that several endpoints return. They document the API (OpenAPI) and type the handlers.
import { Type, type IntegerOptions } from '@sinclair/typebox'
import { t, type TSchema } from 'elysia'

// TypeBox's own integer: Elysia's t.Integer also accepts numeric strings, which
// would document every count in the responses as string-or-integer.
export const Int = (options?: IntegerOptions) => Type.Integer(options)

export const Failure = (code: number, message: string, description: string) =>
  t.Object(
    { code: t.Literal(code), status: t.Literal(false), message: t.String() },
    { description, examples: [{ code, status: false, message }] },
  )

const common = {
  400: Failure(400, 'Invalid JSON', 'Invalid JSON, or a field that fails validation; `message` names the problem'),
  401: Failure(401, 'API key missing', '`API key missing` or `Invalid API key`'),
  405: Failure(405, 'Only POST allowed', 'Any method other than POST'),
  413: Failure(413, 'Payload too large', 'Body over 64 KiB'),
  429: Failure(429, 'Too many requests', 'Over the rate limit; `Retry-After` says when to try again'),
  500: Failure(500, 'Internal Server Error', 'Server-side failure; details go to the log only'),
}

// a spread keeps TypeBox's symbol keys, so the copy is still the same schema
const withExample = <S extends TSchema>(schema: S, example: unknown): S => ({ ...schema, examples: [example] })

/** Response schemas for a route: its success and the failures every route shares. */
export const responses = <S extends TSchema>(ok: S, example: unknown) => ({ 200: withExample(ok, example), ...common })

/** The same, plus the route's own 404. */
export const responsesWith404 = <S extends TSchema>(ok: S, example: unknown, notFound: { message: string; description: string }) => ({
  200: withExample(ok, example),
  ...common,
  404: Failure(404, notFound.message, notFound.description),
})

export const MetricsObject = t.Object({
  total_search: Int(),
  website_clicks: Int(),
  call_clicks: Int(),
  direction_requests: Int(),
  business_bookings: Int(),
})

export const StoreEntry = t.Object({
  storelookup: t.String({ description: 'Encrypted, signed store reference; send it back unmodified' }),
  dealership_name: t.String(),
  city: t.String(),
  state: t.String(),
  has_data: t.Boolean(),
  message: t.String({ description: '"" or "No record found"' }),
  days_with_data: Int(),
  totals: MetricsObject,
})

export const DealerBlock = t.Object({
  storelookup: t.String(),
  sap_code: t.String(),
  dealership_name: t.String(),
  city: t.String(),
  state: t.String(),
})
