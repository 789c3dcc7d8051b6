// The success envelope: what a route's handler returns, serialised here and
// compressed when the client asks (decision 33).
import { dataAsOf } from '../store/freshness'
import type { Store } from '../store/open'
import { noteFor } from './accessLog'
import { encodeBody } from './compression'

/** An answer's text in pieces, joined once: strings, and numbers written as JSON writes them. */
export type Pieces = (string | number)[]

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

/**
 * An answer's `data` rows as JSON text already, each row rendered by the route (a row of
 * type R): the pieces of '[', the rows and ']', joined once with the rest of the answer.
 */
export interface RenderedRows<R> {
  pieces: Pieces
  count: number
  /** the row type, for the compiler only */
  readonly row?: R
}

/**
 * Rows of the answer's row type Out, each pushed onto one list of pieces by `render`,
 * joined once (answerRows). Cheaper than a string a row: a row built as a template or by +
 * is a rope of its parts, which the page's join then walks and copies again.
 */
export function renderPieces<Out, In>(rows: readonly In[], render: (row: In, out: Pieces, index: number) => void): RenderedRows<Out> {
  const out: Pieces = ['[']
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) out.push(',')
    render(rows[i], out, i)
  }
  out.push(']')
  return { pieces: out, count: rows.length }
}

/**
 * A success answer whose `data` (its last field) is rendered already: for rows whose
 * text is mostly rendered once and kept (a store entry's own fields, a product), so
 * only what changes per answer is written. Rows made fresh per answer (call records)
 * are objects serialised with their answer (answer, store/calls.ts).
 */
export function answerRows<T extends { data: unknown[] }>(ctx: Ctx, head: Omit<T, 'data'>, rows: RenderedRows<T['data'][number]>): Response {
  noteFor(ctx.request).rows = rows.count
  const top = JSON.stringify(head)
  // the head, without its closing brace, goes before the rows' '[' and the brace after their ']':
  // one join makes the whole answer, where a template around the joined rows copied them again
  const pieces = rows.pieces
  pieces[0] = `${top.slice(0, -1)},"data":[`
  pieces.push('}')
  return respond(ctx, pieces.join(''))
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
