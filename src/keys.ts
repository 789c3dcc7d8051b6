// API keys: high-entropy, with a recognisable prefix and a checksum, so a
// mistyped key of ours is refused before any look-up. Only the SHA-256 of a
// key is ever stored (decision 27).
import { createHash, randomBytes } from 'node:crypto'

const KEY_PREFIX = 'lak_'
const checksum = (body: string) => createHash('sha256').update(`${KEY_PREFIX}${body}`).digest('base64url').slice(0, 6)

/** A new key: lak_ + 32 random bytes (base64url) + _ + 6-character checksum. */
export function newApiKey(): string {
  const body = randomBytes(32).toString('base64url')
  return `${KEY_PREFIX}${body}_${checksum(body)}`
}

/**
 * False for a key that claims our format but fails it (a typo, a truncation).
 * Keys without the prefix (issued before this service) are left to the look-up.
 */
export function plausibleApiKey(key: string): boolean {
  if (!key.startsWith(KEY_PREFIX)) return true
  const m = /^lak_([A-Za-z0-9_-]{43})_([A-Za-z0-9_-]{6})$/.exec(key)
  return m !== null && checksum(m[1]) === m[2]
}
