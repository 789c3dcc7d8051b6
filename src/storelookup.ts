// storelookup: opaque, deterministic, integration-bound tokens that reference a store (SIV over AES-256-CTR + HMAC-SHA256).
import { createCipheriv, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

export interface Storelookup {
  seal(integrationId: number, storeId: number): string;
  open(integrationId: number, token: unknown): number | null; // store id, or null when invalid
}

export const STORELOOKUP_MIN_SECRET_BYTES = 32;

const VERSION = 1;
const SALT = "listing-api storelookup salt";
const MAC_INFO = "listing-api storelookup v1 mac";
const ENC_INFO = "listing-api storelookup v1 enc";
// 1 version + 16 IV + 4 store id = 21 bytes = 7*3, so base64url has no padding or spare bits.
const TOKEN_BYTES = 21;
const MAX_INPUT_CHARS = 512; // refuse absurd input before doing any decoding work
const TOKEN_RE = /^[A-Za-z0-9_-]+$/;
const SEALED_MEMO_LIMIT = 100_000;

function checkUint32(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new RangeError(`${name} must be an integer in 0..2^32-1`);
  }
  return value;
}

function uint32(value: number, name: string): Buffer {
  const buf = Buffer.alloc(4);
  buf.writeUInt32BE(checkUint32(value, name));
  return buf;
}

// Strict: decoders silently skip stray characters and ignore trailing bits, so only
// accept input that is exactly the canonical encoding of the bytes it decodes to.
export function strictDecode(token: string): Buffer | null {
  if (!TOKEN_RE.test(token)) return null;
  const bytes = Buffer.from(token, "base64url");
  return bytes.toString("base64url") === token ? bytes : null;
}

export function createStorelookup(secret: string): Storelookup {
  if (typeof secret !== "string" || Buffer.byteLength(secret, "utf8") < STORELOOKUP_MIN_SECRET_BYTES) {
    throw new Error(`STORELOOKUP_SECRET must be at least ${STORELOOKUP_MIN_SECRET_BYTES} bytes`);
  }
  // Separate keys for MAC and encryption, derived once per instance.
  const macKey = Buffer.from(hkdfSync("sha256", secret, SALT, MAC_INFO, 32));
  const encKey = Buffer.from(hkdfSync("sha256", secret, SALT, ENC_INFO, 32));

  // Synthetic IV: binds version, integration and store, and makes sealing deterministic.
  const syntheticIv = (integration: Buffer, store: Buffer): Buffer =>
    createHmac("sha256", macKey).update(Buffer.of(VERSION)).update(integration).update(store).digest().subarray(0, 16);

  // CTR is its own inverse, so the same call encrypts and decrypts.
  const ctr = (iv: Buffer, data: Buffer): Buffer => {
    const cipher = createCipheriv("aes-256-ctr", encKey, iv);
    return Buffer.concat([cipher.update(data), cipher.final()]);
  };

  // Sealing is a pure function of (integration, store), and a lookup answer seals
  // one token per store (hundreds for a large employee), so tokens are remembered.
  // Bounded: cleared when full (10,000 stores × a few integrations fit easily).
  const sealed = new Map<number, string>();

  return {
    seal(integrationId, storeId) {
      // checked before the look-up: a fractional id could otherwise hit another pair's key
      const memoKey = checkUint32(integrationId, "integrationId") * 0x1_0000_0000 + checkUint32(storeId, "storeId");
      const known = sealed.get(memoKey);
      if (known !== undefined) return known;
      const store = uint32(storeId, "storeId");
      const iv = syntheticIv(uint32(integrationId, "integrationId"), store);
      const token = Buffer.concat([Buffer.of(VERSION), iv, ctr(iv, store)]).toString("base64url");
      if (sealed.size >= SEALED_MEMO_LIMIT) sealed.clear();
      sealed.set(memoKey, token);
      return token;
    },

    open(integrationId, token) {
      try {
        if (typeof token !== "string" || token.length > MAX_INPUT_CHARS) return null;
        const bytes = strictDecode(token);
        if (!bytes || bytes.length !== TOKEN_BYTES || bytes[0] !== VERSION) return null;
        const iv = bytes.subarray(1, 17);
        const store = ctr(iv, bytes.subarray(17));
        const expected = syntheticIv(uint32(integrationId, "integrationId"), store);
        return timingSafeEqual(iv, expected) ? store.readUInt32BE(0) : null;
      } catch {
        return null; // bad input (including a bad integration id) never throws from open()
      }
    },
  };
}
