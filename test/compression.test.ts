// Decision 33: an answer over 1 KiB is compressed when Accept-Encoding offers
// zstd or gzip, with Content-Encoding and Vary; the JSON is the same either way.
import { describe, expect, test } from 'bun:test'
import { chooseEncoding } from '../src/http/compression'
import { post, testApp } from './helpers'

const t = testApp()
const BIG = ['/products/filter', { limit: 30 }] as const // about 6 KB
const SMALL = ['/listing/dealer', { sap_code: 'D400', from_date: '2025-01-01', to_date: '2025-01-31' }] as const // under 1 KiB

const send = (path: string, body: object, acceptEncoding?: string) =>
  t.app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'x-api-key': 'test-key-acme', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) }, body: JSON.stringify(body) }))

describe('compression', () => {
  const plain = () => post(t, ...BIG).then((r) => r.text)

  test.each([
    ['gzip', 'gzip', (b: Uint8Array<ArrayBuffer>) => Bun.gunzipSync(b)],
    ['gzip, deflate, br, zstd', 'zstd', (b: Uint8Array<ArrayBuffer>) => Bun.zstdDecompressSync(b)],
    ['zstd;q=0, gzip;q=0.5', 'gzip', (b: Uint8Array<ArrayBuffer>) => Bun.gunzipSync(b)],
    ['*', 'zstd', (b: Uint8Array<ArrayBuffer>) => Bun.zstdDecompressSync(b)],
  ])('Accept-Encoding: %s gets %s, and the same JSON', async (accept, encoding, decode) => {
    const res = await send(...BIG, accept)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBe(encoding)
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const bytes = new Uint8Array(await res.arrayBuffer())
    const json = new TextDecoder().decode(decode(bytes))
    expect(json).toBe(await plain())
    expect(bytes.length).toBeLessThan(json.length / 3)
  })

  test.each([undefined, 'identity', 'br', 'gzip;q=0, zstd;q=0', '*;q=0'])('Accept-Encoding %p: sent as it is', async (accept) => {
    const res = await send(...BIG, accept)
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(await res.text()).toBe(await plain())
  })

  test('an answer of 1 KiB or less is sent as it is; failures too', async () => {
    const small = await send(...SMALL, 'gzip, zstd')
    expect(small.headers.get('content-encoding')).toBeNull()
    expect(((await small.json()) as any).returned).toBe(0)
    const failure = await send('/listing/dealer', { from_date: 'x'.repeat(5000) }, 'gzip')
    expect(failure.status).toBe(400)
    expect(failure.headers.get('content-encoding')).toBeNull()
  })

  test('choosing: an offered coding with q above 0, zstd first', () => {
    expect(chooseEncoding('GZIP')).toBe('gzip')
    expect(chooseEncoding('gzip;q=0.001')).toBe('gzip')
    expect(chooseEncoding('gzip; q=0')).toBeUndefined()
    expect(chooseEncoding('zstd, *;q=0')).toBe('zstd')
    expect(chooseEncoding('*;q=0.5, zstd;q=0')).toBe('gzip')
    expect(chooseEncoding('gzip;q=abc')).toBeUndefined()
    expect(chooseEncoding('')).toBeUndefined()
  })
})
