// Response models shared by the routes: the failure envelope and the objects
// that several endpoints return. They document the API (OpenAPI) and type the handlers.
import { Type, type IntegerOptions } from '@sinclair/typebox'
import { t, type TSchema } from 'elysia'
import { checkDateOrder } from './inputs'

// TypeBox's own integer: Elysia's t.Integer also accepts numeric strings, which
// would document every count in the responses as string-or-integer.
export const Int = (options?: IntegerOptions) => Type.Integer(options)

const Failure = (code: number, message: string, description: string, title = `Failure${code}`) =>
  t.Object(
    { code: t.Literal(code), status: t.Literal(false), message: t.String() },
    { title, description, examples: [{ code, status: false, message }] },
  )

const common = {
  400: Failure(400, 'Invalid JSON', 'Invalid JSON, or a field that fails validation; `message` names the problem'),
  401: Failure(401, 'API key missing', '`API key missing` or `Invalid API key`'),
  405: Failure(405, 'Only POST allowed', 'Any method other than POST'),
  413: Failure(413, 'Payload too large', 'Body over 64 KiB'),
  429: Failure(429, 'Too many requests', 'Over the rate limit; `Retry-After` says when to try again'),
  500: Failure(500, 'Internal Server Error', 'Server-side failure; details go to the log only'),
}

/** The fields every success answer starts with; data_as_of is changes.md's freshness, the same value /health reports. */
export const okFields = {
  code: t.Literal(200),
  status: t.Literal(true),
  data_as_of: t.String({
    description: "The master's own clock (the clock of call_start_time) when the snapshot behind this answer was read: the last good sync's. Compare it with your clock to see how fresh the answer is.",
    examples: ['2025-02-01 06:00:04'],
  }),
}

// a spread keeps TypeBox's symbol keys, so the copy is still the same schema
const withExample = <S extends TSchema>(schema: S, example: unknown): S => ({ ...schema, examples: [example] })

/** Response schemas for a route: its success and the failures every route shares. */
export const responses = <S extends TSchema>(ok: S, example: unknown) => ({ 200: withExample(ok, example), ...common })

/** The same, plus the route's own 404. */
export const responsesWith404 = <S extends TSchema>(ok: S, example: unknown, notFound: { message: string; description: string }) => ({
  200: withExample(ok, example),
  ...common,
  404: Failure(404, notFound.message, notFound.description, `${String(ok.title).replace(/Answer$/, '')}NotFound`),
})

/** The paging fields day-wise, call log and products answer with, in pagingOf's order. */
export const pagingFields = (totalDescription?: string) => ({
  page: Int(),
  limit: Int(),
  returned: Int(),
  total: Int(totalDescription ? { description: totalDescription } : undefined),
  total_pages: Int(),
  has_more: t.Boolean(),
})

export const MetricsObject = t.Object({
  total_search: Int(),
  website_clicks: Int(),
  call_clicks: Int(),
  direction_requests: Int(),
  business_bookings: Int(),
}, { title: 'Metrics' })

export const StoreEntry = t.Object({
  storelookup: t.String({ description: 'Encrypted, signed store reference; send it back unmodified' }),
  dealership_name: t.String(),
  city: t.String(),
  state: t.String(),
  has_data: t.Boolean(),
  message: t.String({ description: '"" or "No record found"' }),
  days_with_data: Int(),
  totals: MetricsObject,
}, { title: 'StoreEntry' })

export const DealerBlock = t.Object({
  storelookup: t.String(),
  sap_code: t.String(),
  dealership_name: t.String(),
  city: t.String(),
  state: t.String(),
}, { title: 'DealerBlock' })

/**
 * A route's options: its body, its answers and its documentation. The date-order
 * check runs on every route (a body without dates passes it untouched).
 */
export const routeOptions = <B extends TSchema, R extends Record<number, TSchema>>(body: B, response: R, detail: { summary: string; tag: string; description: string }) => ({
  body,
  transform: checkDateOrder,
  parse: 'json' as const, // documents application/json; apiContext's strict parser runs first
  response,
  detail: { summary: detail.summary, description: detail.description, tags: [detail.tag] },
})
