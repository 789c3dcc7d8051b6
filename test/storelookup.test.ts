import { describe, expect, test } from "bun:test";
import { createCipheriv, createHmac } from "node:crypto";
import { createStorelookup, STORELOOKUP_MIN_SECRET_BYTES } from "../src/storelookup";

const SECRET = "k".repeat(32);
const OTHER_SECRET = "another-storelookup-secret-0123456789";
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const sl = createStorelookup(SECRET);

// Independent re-implementation from raw primitives (HKDF done by hand per RFC 5869),
// used to cross-check a frozen vector and to forge a correctly MACed version-2 token.
function reference(secret: string, version: number, integrationId: number, storeId: number): string {
  const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
  const prk = createHmac("sha256", "listing-api storelookup salt").update(secret).digest();
  const expand = (info: string) => createHmac("sha256", prk).update(info).update(Buffer.of(1)).digest();
  const macKey = expand("listing-api storelookup v1 mac");
  const encKey = expand("listing-api storelookup v1 enc");
  const pt = u32(storeId);
  const iv = createHmac("sha256", macKey).update(Buffer.concat([Buffer.of(version), u32(integrationId), pt])).digest().subarray(0, 16);
  const c = createCipheriv("aes-256-ctr", encKey, iv);
  return Buffer.concat([Buffer.of(version), iv, c.update(pt), c.final()]).toString("base64url");
}

/**
 * A token whose store decrypts correctly but whose tag differs from the true one
 * at byte `at` only: the store re-encrypted under the altered IV. Only a check of
 * the whole 16-byte tag refuses it (a comparison of the first few bytes would not).
 */
function forgedTag(secret: string, integrationId: number, storeId: number, at: number): string {
  const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
  const prk = createHmac("sha256", "listing-api storelookup salt").update(secret).digest();
  const expand = (info: string) => createHmac("sha256", prk).update(info).update(Buffer.of(1)).digest();
  const pt = u32(storeId);
  const iv = Buffer.from(createHmac("sha256", expand("listing-api storelookup v1 mac")).update(Buffer.concat([Buffer.of(1), u32(integrationId), pt])).digest().subarray(0, 16));
  iv[at] ^= 0x01;
  const c = createCipheriv("aes-256-ctr", expand("listing-api storelookup v1 enc"), iv);
  return Buffer.concat([Buffer.of(1), iv, c.update(pt), c.final()]).toString("base64url");
}

// Computed once with this implementation, cross-checked with reference() (bun) and a Node script.
const VECTORS: [string, number, number, string][] = [
  [SECRET, 1, 1, "AX9-PibkpXVM8XOJjF8wW1KQOv83"],
  [SECRET, 1, 2, "AeIdhd4XS4wYF5Ykd5SFIAfJPJrT"],
  [SECRET, 2, 1, "AU3opy6Jfb17jbl4Y4Ey--8UnXJI"],
  [SECRET, 7, 18, "Afrg86M7Fj3nl4Povi1c9r-Z_Kyf"],
  [SECRET, 42, 123456, "ARwIgHiCTzqVTYSxFqCiQviXRzX6"],
  [SECRET, 4294967295, 4294967295, "ATk1nv7o2vGI2hD6JvZIjzrNO2MZ"],
  [OTHER_SECRET, 1, 1, "Adish15IdGKZZoeR77Td7UdPNteV"],
  [OTHER_SECRET, 42, 123456, "AQ2ogqeQeaOndZ0a4QNyKZRHxlyb"],
];

describe("known-answer vectors", () => {
  for (const [secret, integ, store, token] of VECTORS) {
    test(`${secret === SECRET ? "k*32" : "other"} secret: integration ${integ}, store ${store}`, () => {
      const s = createStorelookup(secret);
      expect(s.seal(integ, store)).toBe(token);
      expect(s.open(integ, token)).toBe(store);
    });
  }

  test("independent re-implementation agrees with the frozen vectors", () => {
    for (const [secret, integ, store, token] of VECTORS) expect(reference(secret, 1, integ, store)).toBe(token);
  });
});

describe("sealing", () => {
  test("round trip, determinism, format", () => {
    for (const [integ, store] of [[1, 1], [3, 0], [99, 65536], [0xffffffff, 0xffffffff]]) {
      const t = sl.seal(integ, store);
      expect(t).toMatch(/^[A-Za-z0-9_-]{1,256}$/);
      expect(t).toHaveLength(28);
      expect(sl.seal(integ, store)).toBe(t);
      expect(sl.open(integ, t)).toBe(store);
    }
  });

  test("different stores and integrations give different tokens", () => {
    const tokens = new Set<string>();
    for (let integ = 1; integ <= 10; integ++) for (let store = 1; store <= 10; store++) tokens.add(sl.seal(integ, store));
    expect(tokens.size).toBe(100);
  });

  test("seal rejects non-integer / out-of-range arguments", () => {
    for (const bad of [-1, 1.5, 2 ** 32, NaN, Infinity]) {
      expect(() => sl.seal(bad, 1)).toThrow();
      expect(() => sl.seal(1, bad)).toThrow();
    }
  });
});

describe("opening rejects tampering", () => {
  const [, integ, store, token] = VECTORS[3]; // contains both '-' and '_'

  test("every single-character substitution", () => {
    for (let i = 0; i < token.length; i++)
      for (const ch of ALPHABET)
        if (ch !== token[i]) expect(sl.open(integ, token.slice(0, i) + ch + token.slice(i + 1))).toBeNull();
  });

  test("every single-character deletion and insertion", () => {
    for (let i = 0; i < token.length; i++) expect(sl.open(integ, token.slice(0, i) + token.slice(i + 1))).toBeNull();
    for (let i = 0; i <= token.length; i++)
      for (const ch of ALPHABET) expect(sl.open(integ, token.slice(0, i) + ch + token.slice(i))).toBeNull();
  });

  test("truncation, extension, whitespace, padding, standard-base64 chars", () => {
    expect(sl.open(integ, token)).toBe(store); // sanity: the untouched token opens
    for (let n = 0; n < token.length; n++) expect(sl.open(integ, token.slice(0, n))).toBeNull();
    const variants = [
      token + "A", token + "AAAA", token + token,
      ` ${token}`, `${token} `, `${token}\n`, `\t${token}`,
      token.slice(0, 10) + " " + token.slice(10), token.slice(0, 10) + "\n" + token.slice(10),
      token + "=", token + "==", token.slice(0, 10) + "=" + token.slice(10),
      token.replaceAll("-", "+"), token.replaceAll("_", "/"),
      token.replaceAll("-", "+").replaceAll("_", "/"),
      "", "A".repeat(600), token + " ".repeat(600),
    ];
    for (const v of variants) expect(sl.open(integ, v)).toBeNull();
  });

  test("non-string input", () => {
    for (const v of [123, null, undefined, {}, { toString: () => token }, [token], Buffer.from(token)])
      expect(sl.open(integ, v)).toBeNull();
  });

  test("a tag wrong in any one byte, with the store decrypting right, is refused: all 16 bytes are compared", () => {
    for (let at = 0; at < 16; at++) expect(sl.open(integ, forgedTag(SECRET, integ, store, at))).toBeNull();
  });

  test("another integration's token", () => {
    expect(sl.open(integ + 1, token)).toBeNull();
    expect(sl.open(1, VECTORS[2][3])).toBeNull(); // sealed for integration 2
    expect(sl.open(-1, token)).toBeNull(); // invalid id: null, not a throw
  });

  test("unknown version, even when correctly MACed", () => {
    expect(reference(SECRET, 1, integ, store)).toBe(token); // the forger is faithful for v1
    const v2 = reference(SECRET, 2, integ, store);
    expect(v2).toHaveLength(28);
    expect(sl.open(integ, v2)).toBeNull();
  });
});

describe("secret handling", () => {
  test("instances with the same secret interoperate; a different secret rejects", () => {
    const a = createStorelookup(SECRET);
    const b = createStorelookup(SECRET);
    const other = createStorelookup(OTHER_SECRET);
    const t = a.seal(5, 777);
    expect(b.seal(5, 777)).toBe(t);
    expect(b.open(5, t)).toBe(777);
    expect(other.open(5, t)).toBeNull();
    expect(a.open(5, other.seal(5, 777))).toBeNull();
  });

  test("weak secret throws; length is counted in UTF-8 bytes", () => {
    expect(STORELOOKUP_MIN_SECRET_BYTES).toBe(32);
    expect(() => createStorelookup("k".repeat(31))).toThrow("STORELOOKUP_SECRET must be at least 32 bytes");
    expect(() => createStorelookup("")).toThrow("STORELOOKUP_SECRET must be at least 32 bytes");
    expect(() => createStorelookup("é".repeat(15) + "k")).toThrow("at least 32 bytes"); // 16 chars, 31 bytes
    expect(() => createStorelookup("é".repeat(16))).not.toThrow(); // 16 chars, 32 bytes
  });
});
