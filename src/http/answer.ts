// The success envelope: what a route's handler returns, serialised here and
// compressed when the client asks (decision 33).
import { dataAsOf } from '../store/freshness'
import type { Store } from '../store/open'
import { noteFor } from './accessLog'
import { encodeBody } from './compression'
import { JsonBytes, utf8 } from './jsonBytes'

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
 * An answer's `data` rows (of the answer's row type R), written as JSON by `write` when
 * the answer is: after its head, which may hold what was summed over them.
 */
export interface WrittenRows<R> {
  count: number
  write(out: JsonBytes): void
  /** the row type, for the compiler only */
  readonly row?: R
}

/** Rows of the answer's row type Out, each written by `write`, with commas between. */
export function rowsOf<Out, In>(rows: readonly In[], write: (row: In, out: JsonBytes, index: number) => void): WrittenRows<Out> {
  return {
    count: rows.length,
    write(out) {
      for (let i = 0; i < rows.length; i++) {
        if (i > 0) out.byte(COMMA)
        write(rows[i], out, i)
      }
    },
  }
}

const COMMA = 44
const DATA = utf8(',"data":[')
const END = utf8(']}')
/** Every answer of this worker is written here, one at a time (jsonBytes.ts). */
const answerBytes = new JsonBytes()

/**
 * A success answer whose `data` (its last field) is written as bytes: for rows whose
 * text is mostly rendered once and kept (a store entry's own fields, a product), so
 * only what changes per answer is written. Rows made fresh per answer (call records)
 * are objects serialised with their answer (answer, store/calls.ts).
 */
export function answerRows<T extends { data: unknown[] }>(ctx: Ctx, head: Omit<T, 'data'>, rows: WrittenRows<T['data'][number]>): Response {
  noteFor(ctx.request).rows = rows.count
  const out = answerBytes.begin()
  // the head without its closing brace, then the rows in '"data":[' and ']}'
  out.text(JSON.stringify(head).slice(0, -1))
  out.bytes(DATA)
  rows.write(out)
  out.bytes(END)
  return respond(ctx, out.written())
}

function respond(ctx: Ctx, json: string | Uint8Array<ArrayBuffer>): Response {
  const encoded = encodeBody(json, ctx.request.headers.get('accept-encoding'))
  const response = new Response(encoded.body, { headers: { ...(ctx.set.headers as Record<string, string>), ...encoded.headers } })
  // the answer carries every header now: with any left in set.headers, Elysia would copy the
  // answer into a new Response around its body's stream, and Bun would send it as a stream
  ctx.set.headers = {}
  return response
}

/** The fields every success answer starts with (responses.ts okFields), data_as_of read in the answer's snapshot. */
export const okHead = (db: Store) => ({ code: 200 as const, status: true as const, data_as_of: dataAsOf(db) ?? '' })
