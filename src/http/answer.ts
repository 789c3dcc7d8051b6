// The success envelope: what a route's handler returns, serialised here and
// compressed when the client asks (decision 33).
import { dataAsOf } from '../store/freshness'
import type { Store } from '../store/open'
import { noteFor } from './accessLog'
import { encodeBody } from './compression'

/**
 * A success answer, serialised here rather than by Elysia: Elysia checks a plain
 * object against the route's response schema, and on a 500-row page that check
 * cost as much as the query. The schemas still document every answer, and the
 * test suite checks every answer it receives against them (test/helpers.ts).
 * Compressed when the client asks (decision 33). Also tells the access log how many rows left.
 */
export function answer<T extends object>(ctx: { request: Request; set: { headers: Record<string, unknown> } }, body: T): Response {
  const data = (body as { data?: unknown }).data
  if (Array.isArray(data)) noteFor(ctx.request).rows = data.length
  const encoded = encodeBody(JSON.stringify(body), ctx.request.headers.get('accept-encoding'))
  const response = new Response(encoded.body, { headers: { ...(ctx.set.headers as Record<string, string>), ...encoded.headers } })
  // the answer carries every header now: with any left in set.headers, Elysia would copy the
  // answer into a new Response around its body's stream, and Bun would send it as a stream
  ctx.set.headers = {}
  return response
}

/** The fields every success answer starts with (responses.ts okFields), data_as_of read in the answer's snapshot. */
export const okHead = (db: Store) => ({ code: 200 as const, status: true as const, data_as_of: dataAsOf(db) ?? '' })
