// What every API route shares: the dependencies it is built with, and the
// front half of the request flow (strict JSON body → API key → rate limit),
// which Elysia runs before it validates the body against the route's schema,
// so a missing key wins over a bad field (decision 2).
import { Elysia } from 'elysia'
import type { Storelookup } from '../storelookup'
import type { Store } from '../store/open'
import { noteFor } from './accessLog'
import { authenticate } from './auth'
import { ApiError, JSON_TYPE, Message } from './errors'
import type { RateLimiter } from './rateLimit'

export interface ApiDeps {
  db: Store
  storelookup: Storelookup
  imageBaseUrl: string
  rateLimiter: RateLimiter
  /** /health: data older than this is degraded */
  staleAfterSeconds: number
  /** /health: a store that was never synced is degraded (serve), or fine (demo, tests) */
  expectSync: boolean
}

export const MAX_BODY_BYTES = 64 * 1024

/**
 * Runs a handler's queries in one read transaction. The totals and the page of
 * an answer then come from the same snapshot even when a sync commits between
 * them, and SQLite takes its WAL read lock once instead of once per statement
 * (a 276-store lookup's statements ran 35% faster so). Handlers are
 * synchronous, so no other request's statements can interleave.
 */
export function readSnapshot<T>(db: Store, read: () => T): T {
  const client = db.$client
  if (client.inTransaction) return read() // a caller already holds one (tests, demo seeding)
  client.query('BEGIN').run()
  try {
    return read()
  } finally {
    client.query('COMMIT').run() // read-only: nothing to roll back
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true }) // decode() without stream keeps no state between calls

/** The body as a JSON object, or 400 Invalid JSON / 413 (decision 2). Never buffers more than 64 KiB. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw new ApiError(413, Message.payloadTooLarge)
  const bytes = declared !== null ? new Uint8Array(await request.arrayBuffer()) : await readLimited(request)
  if (bytes.byteLength > MAX_BODY_BYTES) throw new ApiError(413, Message.payloadTooLarge)
  let value: unknown
  try {
    value = JSON.parse(utf8.decode(bytes))
  } catch {
    throw new ApiError(400, Message.invalidJson)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ApiError(400, Message.invalidJson)
  return value as Record<string, unknown>
}

// A body of unknown length (chunked): read until it ends or passes the limit.
async function readLimited(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of request.body) {
    size += chunk.byteLength
    if (size > MAX_BODY_BYTES) throw new ApiError(413, Message.payloadTooLarge)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

export const apiContext = (deps: ApiDeps) =>
  new Elysia()
    // whatever the Content-Type says: partners send JSON with text/plain too
    .onParse({ as: 'scoped' }, ({ request }) => readJsonObject(request))
    .derive({ as: 'scoped' }, ({ request, body, set }) => {
      const integration = authenticate(deps.db, request.headers.get('x-api-key'), body)
      noteFor(request).integration = integration.name
      if (deps.rateLimiter.enabled) Object.assign(set.headers, deps.rateLimiter.take(integration.id))
      set.headers['content-type'] = JSON_TYPE
      return { integration, deps }
    })
