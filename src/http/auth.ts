// API key → integration (decisions 3 and 27). The header wins when present and
// non-empty; otherwise the body's api_key. Only SHA-256 hashes are looked up.
import { createHash } from 'node:crypto'
import { plausibleApiKey } from '../keys'
import { integrationByKeyHash, type Integration } from '../store/directory'
import type { Store } from '../store/open'
import { perVersion, readSnapshot } from '../store/snapshot'
import { ApiError, Message } from './errors'

export const sha256Hex = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex')

/**
 * The keys found valid in the current data version, so a known key costs one map read
 * instead of a checksum and a hash. Only valid keys enter (at most one per integration),
 * and the next sync's version starts afresh, so a revoked key is refused at once.
 */
const knownKeys = perVersion((): Map<string, Integration> => new Map())

export function authenticate(db: Store, headerKey: string | null, body: unknown): Integration {
  let key = headerKey
  if (key === null || key === '') {
    const fromBody = (body as Record<string, unknown>).api_key
    if (fromBody === undefined || fromBody === null || fromBody === '') throw new ApiError(401, Message.apiKeyMissing)
    if (typeof fromBody !== 'string') throw new ApiError(401, Message.invalidApiKey)
    key = fromBody
  }
  const given = key
  // checked in the snapshot the answer reads: a key revoked by the last sync is refused at once
  return readSnapshot(db, () => {
    const known = knownKeys(db)
    const remembered = known.get(given)
    if (remembered) return remembered
    // a mistyped key of ours is refused before any look-up
    if (!plausibleApiKey(given)) throw new ApiError(401, Message.invalidApiKey)
    const integration = integrationByKeyHash(db, sha256Hex(given))
    if (!integration) throw new ApiError(401, Message.invalidApiKey)
    known.set(given, integration)
    return integration
  })
}

/** How the body's api_key field is documented. */
export const apiKeyDescription = 'API key, only when it is not sent in the X-API-KEY header (the header is preferred)'
