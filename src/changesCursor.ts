// Change feed cursors (changes.md): opaque, tamper-evident positions. A cursor
// names the position after which a walk resumes, the store that issued it and
// that store's run before the position (where a replica that did not issue it
// resumes, to lose nothing), and the newest run the partner has seen (a
// replica behind it answers nothing until it catches up, rather than older
// data). HMAC-SHA256 under a key derived from STORELOOKUP_SECRET, which every
// replica shares, so every replica accepts every replica's cursors.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import { strictDecode } from './storelookup'

export interface ChangesCursor {
  /** the store that issued it (meta feed:origin) */
  origin: string
  /** null: the beginning of the feed */
  after: { seq: number; callLogId: string } | null
  /** the issuing store's run before `after.seq` (0 at the beginning) */
  base: number
  /** the issuing store's newest run when it issued the cursor */
  head: number
}

export interface ChangesCursors {
  seal(cursor: ChangesCursor): string
  /** the cursor, or null for one the service did not issue */
  open(token: string): ChangesCursor | null
}

const VERSION = 1
const MAC_INFO = 'listing-api changes cursor v1 mac'
const SALT = 'listing-api changes cursor salt'
const TAG_BYTES = 16
const ORIGIN_BYTES = 8
// version, flags, origin, three 4-byte seconds (good until 2106), then the call_log_id
const HEAD_BYTES = 2 + ORIGIN_BYTES + 12
/** changes.md: at most 256 characters, so at most 192 bytes */
export const MAX_CURSOR_CHARS = 256
const BEGINNING = 1

export function createChangesCursors(secret: string): ChangesCursors {
  const macKey = Buffer.from(hkdfSync('sha256', secret, SALT, MAC_INFO, 32))
  const tagOf = (body: Buffer) => createHmac('sha256', macKey).update(body).digest().subarray(0, TAG_BYTES)
  return {
    seal({ origin, after, base, head }) {
      const id = Buffer.from(after?.callLogId ?? '', 'utf8')
      const body = Buffer.alloc(HEAD_BYTES + id.length)
      body[0] = VERSION
      body[1] = after === null ? BEGINNING : 0
      Buffer.from(origin.padStart(ORIGIN_BYTES * 2, '0').slice(-ORIGIN_BYTES * 2), 'hex').copy(body, 2)
      body.writeUInt32BE(after?.seq ?? 0, 2 + ORIGIN_BYTES)
      body.writeUInt32BE(base, 6 + ORIGIN_BYTES)
      body.writeUInt32BE(head, 10 + ORIGIN_BYTES)
      id.copy(body, HEAD_BYTES)
      return Buffer.concat([body, tagOf(body)]).toString('base64url')
    },
    open(token) {
      if (token.length > MAX_CURSOR_CHARS) return null
      const bytes = strictDecode(token)
      if (!bytes || bytes.length < HEAD_BYTES + TAG_BYTES || bytes[0] !== VERSION) return null
      const body = bytes.subarray(0, bytes.length - TAG_BYTES)
      if (!timingSafeEqual(bytes.subarray(bytes.length - TAG_BYTES), tagOf(body))) return null
      const seq = body.readUInt32BE(2 + ORIGIN_BYTES)
      const callLogId = body.subarray(HEAD_BYTES).toString('utf8')
      return {
        origin: body.subarray(2, 2 + ORIGIN_BYTES).toString('hex'),
        after: body[1] === BEGINNING ? null : { seq, callLogId },
        base: body.readUInt32BE(6 + ORIGIN_BYTES),
        head: body.readUInt32BE(10 + ORIGIN_BYTES),
      }
    },
  }
}
