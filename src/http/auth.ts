// API key → integration (decisions 3 and 27). The header wins when present and
// non-empty; otherwise the body's api_key. Only SHA-256 hashes are looked up.
import { createHash } from 'node:crypto'
import { plausibleApiKey } from '../keys'
import { integrationByKeyHash, type Integration } from '../store/directory'
import type { Store } from '../store/open'
import { latestVersion } from '../store/snapshot'
import { ApiError, Message } from './errors'

export const sha256Hex = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex')

export function authenticate(db: Store, headerKey: string | null, body: unknown): Integration {
  let key = headerKey
  if (key === null || key === '') {
    const fromBody = (body as Record<string, unknown>).api_key
    if (fromBody === undefined || fromBody === null || fromBody === '') throw new ApiError(401, Message.apiKeyMissing)
    if (typeof fromBody !== 'string') throw new ApiError(401, Message.invalidApiKey)
    key = fromBody
  }
  if (!plausibleApiKey(key)) throw new ApiError(401, Message.invalidApiKey)
  latestVersion(db) // a key revoked a moment ago is refused at once
  const integration = integrationByKeyHash(db, sha256Hex(key))
  if (!integration) throw new ApiError(401, Message.invalidApiKey)
  return integration
}

/** How the body's api_key field is documented. */
export const apiKeyDescription = 'API key, only when it is not sent in the X-API-KEY header (the header is preferred)'
