// What every API route shares: the dependencies it is built with, and the
// front half of the request flow (strict JSON body → API key → rate limit),
// which Elysia runs before it validates the body against the route's schema,
// so a missing key wins over a bad field (decision 2).
import { Elysia } from 'elysia'
import type { Config } from '../config'
import { createChangesCursors, type ChangesCursors } from '../changesCursor'
import { createStorelookup, type Storelookup } from '../storelookup'
import type { Store } from '../store/open'
import { noteFor } from './accessLog'
import { authenticate } from './auth'
import { ApiError, JSON_TYPE, Message } from './errors'
import { RateLimiter } from './rateLimit'

export interface ApiDeps {
  db: Store
  storelookup: Storelookup
  changesCursors: ChangesCursors
  imageBaseUrl: string
  rateLimiter: RateLimiter
  /** /health: data older than this is degraded */
  staleAfterSeconds: number
  /** /health: a store that was never synced is degraded (serve), or fine (demo, tests) */
  expectSync: boolean
}

/** The API's dependencies over a read store, from the configuration: the one place they are built (commands, tests, scripts). */
export function apiDeps(
  db: Store,
  config: Pick<Config, 'imageBaseUrl' | 'rateLimitPerMin' | 'rateLimitBurst' | 'staleAfter'>,
  secret: string,
  { expectSync, rateLimitMemory, now = Date.now }: { expectSync: boolean; rateLimitMemory?: SharedArrayBuffer; now?: () => number },
): ApiDeps {
  return {
    db,
    storelookup: createStorelookup(secret),
    changesCursors: createChangesCursors(secret),
    imageBaseUrl: config.imageBaseUrl,
    rateLimiter: new RateLimiter(config.rateLimitPerMin, config.rateLimitBurst, now, rateLimitMemory),
    staleAfterSeconds: config.staleAfter,
    expectSync,
  }
}

const MAX_BODY_BYTES = 64 * 1024
/** decision 32: no field of the contract nests more than one level */
const MAX_JSON_DEPTH = 32

const utf8 = new TextDecoder('utf-8', { fatal: true }) // decode() without stream keeps no state between calls

/** The body as a JSON object, or 400 Invalid JSON / 413 (decision 2). Never buffers more than 64 KiB. */
async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw new ApiError(413, Message.payloadTooLarge)
  const bytes = declared !== null ? new Uint8Array(await request.arrayBuffer()) : await readLimited(request)
  if (bytes.byteLength > MAX_BODY_BYTES) throw new ApiError(413, Message.payloadTooLarge)
  if (nestedDeeperThan(bytes, MAX_JSON_DEPTH)) throw new ApiError(400, Message.invalidJson)
  let value: unknown
  try {
    value = JSON.parse(utf8.decode(bytes))
  } catch {
    throw new ApiError(400, Message.invalidJson)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ApiError(400, Message.invalidJson)
  // No field of the contract holds an object or an array, so what one holds is never read; it is
  // emptied here, so nothing downstream meets hostile content (a validator that prints the value
  // of a field {"toString": ""} would throw). The field still fails as the wrong type it is.
  const body = value as Record<string, unknown>
  for (const key of Object.keys(body)) {
    const field = body[key]
    if (field !== null && typeof field === 'object') body[key] = Array.isArray(field) ? [] : {}
  }
  return body
}

/**
 * Whether the JSON text opens more than `limit` objects or arrays inside one
 * another, decided on the bytes before anything parses them: a body nested
 * thousands deep would otherwise overflow the stack of whatever walks it later.
 * Brackets inside strings do not count. (Malformed text is left to JSON.parse.)
 */
function nestedDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]
    if (inString) {
      if (b === 0x5c) i++ // backslash: skip the escaped byte
      else if (b === 0x22) inString = false
    } else if (b === 0x22) inString = true
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > limit) return true
    } else if (b === 0x5d || b === 0x7d) depth--
  }
  return false
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
