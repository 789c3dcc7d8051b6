// The success envelope: what a route's handler returns, serialised here and
// compressed when the client asks (decision 33).
import { dataAsOf } from '../store/freshness'
import type { Store } from '../store/open'
import { noteFor } from './accessLog'
import { encodeBody } from './compression'

type Ctx = { request: Request; set: { headers: Record<string, unknown> } }

/**
 * A success answer, serialised here rather than by Elysia: Elysia checks a plain
 * object against the route's response schema, and on a 500-row page that check
 * cost as much as the query. The schemas still document every answer, and the
 * test suite checks every answer it receives against them (test/helpers.ts).
 * Compressed when the client asks (decision 33). Also tells the access log how many rows left.
 */
export function answer<T extends object>(ctx: Ctx, body: T): Response {
  const data = (body as { data?: unknown }).data
  if (Array.isArray(data)) noteFor(ctx.request).rows = data.length
  return respond(ctx, JSON.stringify(body))
}

/** An answer's `data` rows as JSON text already, each row rendered by the route (a row of type R). */
export interface RenderedRows<R> {
  json: string
  count: number
  /** the row type, for the compiler only */
  readonly row?: R
}

/** Rows of the answer's row type Out, rendered one by one from what the store gave (In). */
export function renderRows<Out, In>(rows: readonly In[], render: (row: In) => string): RenderedRows<Out> {
  const parts = new Array<string>(rows.length)
  for (let i = 0; i < rows.length; i++) parts[i] = render(rows[i])
  return { json: `[${parts.join(',')}]`, count: rows.length }
}

/**
 * A success answer whose `data` (its last field) is rendered already: building and
 * serialising an object per row, field by field, is most of a long page's cost.
 */
export function answerRows<T extends { data: unknown[] }>(ctx: Ctx, head: Omit<T, 'data'>, rows: RenderedRows<T['data'][number]>): Response {
  noteFor(ctx.request).rows = rows.count
  const top = JSON.stringify(head)
  return respond(ctx, `${top.slice(0, -1)},"data":${rows.json}}`)
}

function respond(ctx: Ctx, json: string): Response {
  const encoded = encodeBody(json, ctx.request.headers.get('accept-encoding'))
  const response = new Response(encoded.body, { headers: { ...(ctx.set.headers as Record<string, string>), ...encoded.headers } })
  // the answer carries every header now: with any left in set.headers, Elysia would copy the
  // answer into a new Response around its body's stream, and Bun would send it as a stream
  ctx.set.headers = {}
  return response
}

/** The fields every success answer starts with (responses.ts okFields), data_as_of read in the answer's snapshot. */
export const okHead = (db: Store) => ({ code: 200 as const, status: true as const, data_as_of: dataAsOf(db) ?? '' })
