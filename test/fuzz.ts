// Hostile requests, generated (fast-check): bodies of any shape and depth,
// fields of the contract with values of every wrong kind, odd headers and
// methods. Every answer must be a 2xx or 4xx in the exact envelope (decision
// 32: no input yields a 5xx). Shared by test/fuzz.test.ts (a bounded count in
// every `bun test`) and `bun run fuzz` (long runs).
import fc from 'fast-check'
import { API_PATHS } from '../src/http/paths'

/** Every name a request field has anywhere in the contract. */
const FIELDS = ['from_date', 'to_date', 'sap_code', 'emp_code', 'storelookup', 'call_log_id', 'substatus', 'page', 'limit', 'api_key',
  'color', 'finish', 'series', 'size', 'surface', 'range', 'texture', 'cursor', 'toString', 'valueOf', '__proto__', 'constructor']

const nasty = fc.constantFrom(
  '', ' ', '2025-01-01', '2025-02-30', '0000-00-00', '9999-12-31', '2025-1-1', '２０２５-01-01', 'NaN', '-1', '0', '1e3', '01', '1.0',
  '9'.repeat(400), '\u0000', '\ud800', '💩'.repeat(30), 'D100', 'E1', 'Answered', 'missed', '__proto__', 'constructor', 'a'.repeat(600),
)
const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 1.5, 500, 501, 1000, 1001))
const leaf = fc.oneof(nasty, fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), number, fc.boolean(), fc.constant(null))
/** objects that break code which turns a value into text */
const unprintable = fc.constantFrom({ toString: '' }, { toString: 1, valueOf: 1 }, { valueOf: {}, toString: [] }, { __proto__: null }, { constructor: 'x' })
const value = fc.oneof({ depthSize: 'small' }, leaf, unprintable, fc.jsonValue({ maxDepth: 3 }), fc.array(leaf, { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), leaf, { maxKeys: 4 }))

/** A deep nest of arrays and objects around a field value, as a JSON text (up to 16,000 levels, within 64 KiB). */
const deep = fc.record({ depth: fc.oneof(fc.integer({ min: 30, max: 40 }), fc.constantFrom(1000, 5000, 10_000, 16_000)), field: fc.constantFrom(...FIELDS), open: fc.constantFrom('[', '{"x":') }).map(({ depth, field, open }) => {
  const close = open === '[' ? ']' : '}'
  return `{"${field}":${open.repeat(depth)}1${close.repeat(depth)}}`
})

/** An object with some of the contract's fields, each of any value. */
const fields = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 }).map((o) => JSON.stringify(o))

export const body = fc.oneof(
  { weight: 5, arbitrary: fields },
  { weight: 2, arbitrary: deep },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')) },
  { weight: 1, arbitrary: fields.map((json) => json.slice(0, Math.max(1, json.length - 3))) }, // cut short
)

/** A header value HTTP can carry (Latin-1, no control characters but tab), sometimes empty, sometimes long. */
const headerValue = fc.oneof(
  fc.string({ maxLength: 80 }).map((s) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '')),
  fc.constantFrom('', ' ', 'gzip', 'zstd, gzip;q=0', '*;q=0', 'application/json', 'text/plain', 'x'.repeat(2000)),
)

export interface HostileRequest {
  method: string
  path: string
  headers: Record<string, string>
  body: string
}

export function hostileRequest(goodKey: string): fc.Arbitrary<HostileRequest> {
  return fc.record({
    method: fc.oneof({ weight: 6, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') }),
    path: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...API_PATHS) }, { weight: 1, arbitrary: fc.constantFrom(...API_PATHS).map((p) => `${p}/`) }, { weight: 1, arbitrary: fc.webPath() }),
    headers: fc.record(
      {
        'x-api-key': fc.oneof({ weight: 4, arbitrary: fc.constant(goodKey) }, { weight: 1, arbitrary: headerValue }),
        'content-type': headerValue,
        'accept-encoding': headerValue,
        'x-request-id': headerValue,
      },
      { requiredKeys: [] },
    ),
    body,
  })
}

/** The body as text, undone from the Content-Encoding the answer chose. */
export async function bodyText(res: Response): Promise<string> {
  const bytes = new Uint8Array(await res.arrayBuffer())
  const encoding = res.headers.get('content-encoding')
  const plain = encoding === 'gzip' ? Bun.gunzipSync(bytes) : encoding === 'zstd' ? Bun.zstdDecompressSync(bytes) : bytes
  return new TextDecoder().decode(plain)
}

/** What is wrong with an answer (its status, content type and body), or undefined when it is a 2xx or 4xx in the envelope. */
export function problemWith(status: number, contentType: string | null, text: string): string | undefined {
  if (status >= 500 || status < 200) return `status ${status}`
  if (status === 200) {
    const json = JSON.parse(text)
    return json.code === 200 && json.status === true ? undefined : `a 200 whose body is ${text.slice(0, 200)}`
  }
  if (text === '') return undefined // HEAD: no body
  let json: Record<string, unknown>
  try {
    json = JSON.parse(text)
  } catch {
    return `status ${status} with a body that is not JSON: ${text.slice(0, 200)}`
  }
  const keys = Object.keys(json).sort().join(',')
  if (keys !== 'code,message,status' || json.code !== status || json.status !== false || typeof json.message !== 'string') return `status ${status} with ${text.slice(0, 200)}`
  if (contentType !== 'application/json; charset=utf-8') return `content type ${contentType}`
  return undefined
}
