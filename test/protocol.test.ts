// What every API route shares, tested once over all seven: 405, invalid JSON,
// body size, API key handling and order of checks, the envelope, request ids.
import { describe, expect, test } from 'bun:test'
import { API_PATHS } from '../src/http/app'
import { expectDocumented, post, testApp, TEST_KEYS, tokenFor } from './helpers'

const t = testApp()

// A valid body for each route, so that only the property under test varies.
const valid: Record<(typeof API_PATHS)[number], Record<string, unknown>> = {
  '/listing/listingtiles': { from_date: '2025-01-01', to_date: '2025-01-31' },
  '/listing/dealer': { from_date: '2025-01-01', to_date: '2025-01-31', sap_code: 'D100' },
  '/listing/employee': { from_date: '2025-01-01', to_date: '2025-01-31', emp_code: 'E1' },
  '/listing/daywise': { from_date: '2025-01-01', to_date: '2025-01-31', storelookup: tokenFor(t, 101) },
  '/listing/calls': { from_date: '2025-01-01', to_date: '2025-01-31', storelookup: tokenFor(t, 101) },
  '/products/filter': {},
  '/listing/changes': {},
}

function expectFailure(r: { status: number; json: any; res: Response }, code: number, message: string) {
  expect(r.status).toBe(code)
  expect(r.json).toEqual({ code, status: false, message })
  expect(r.res.headers.get('content-type')).toBe('application/json; charset=utf-8')
}

const send = (path: string, init: RequestInit) => t.app.handle(new Request(`http://localhost${path}`, init))

describe.each([...API_PATHS])('%s', (path) => {
  test('answers a valid request with 200 and the JSON content type', async () => {
    const r = await post(t, path, valid[path])
    expect(r.status).toBe(200)
    expect(r.json.code).toBe(200)
    expect(r.json.status).toBe(true)
    expect(r.res.headers.get('content-type')).toBe('application/json; charset=utf-8')
  })

  test.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s is 405 Only POST allowed, before the key is checked', async (method) => {
    const res = await send(path, { method })
    expect(res.status).toBe(405)
    expect(await res.json()).toEqual({ code: 405, status: false, message: 'Only POST allowed' })
    expect(res.headers.get('allow')).toBe('POST')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('HEAD is 405 with no body', async () => {
    const res = await send(path, { method: 'HEAD' })
    expect(res.status).toBe(405)
    expect(await res.text()).toBe('')
    expect(res.headers.get('allow')).toBe('POST')
    expect(res.headers.get('x-request-id')).toBeTruthy()
  })

  test('a body nested deeper than 32 levels is 400 Invalid JSON, before anything else (decision 32)', async () => {
    const deep = (n: number) => `{"from_date":${'['.repeat(n)}1${']'.repeat(n)},"to_date":"2025-01-31"}`
    expectFailure(await post(t, path, deep(5000), {}), 400, 'Invalid JSON') // no key: the body reader decides first
    expectFailure(await post(t, path, deep(32)), 400, 'Invalid JSON') // 33 levels with the body itself
    expect((await post(t, path, deep(31))).json.message).not.toBe('Invalid JSON') // 32 levels: read, then judged by field
    const brackets = await post(t, path, JSON.stringify({ ...valid[path], call_log_id: '['.repeat(40), color: '{'.repeat(40) }))
    expect(brackets.json.message).not.toBe('Invalid JSON') // brackets inside a string do not nest
  })

  test('a field holding an object that cannot be printed is a 400 naming the field, not a 500', async () => {
    const field = path === '/products/filter' ? 'color' : path === '/listing/changes' ? 'cursor' : 'from_date'
    expectFailure(await post(t, path, { ...valid[path], [field]: { toString: '' } }), 400, `${field} must be a string`)
  })

  test.each([
    ['malformed JSON', '{"from_date": '],
    ['an empty body', ''],
    ['an array', '[]'],
    ['a string', '"text"'],
    ['a number', '42'],
    ['null', 'null'],
    ['plain text', 'from_date=2025-01-01'],
  ])('%s is 400 Invalid JSON, even without a key', async (_, body) => {
    expectFailure(await post(t, path, body, {}), 400, 'Invalid JSON')
  })

  test('a body that is not UTF-8 is 400 Invalid JSON', async () => {
    const res = await send(path, { method: 'POST', headers: { 'x-api-key': TEST_KEYS.acme }, body: new Uint8Array([0x7b, 0xff, 0x7d]) })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).message).toBe('Invalid JSON')
  })

  test('a body over 64 KiB is 413 Payload too large', async () => {
    const body = JSON.stringify({ ...valid[path], pad: 'x'.repeat(64 * 1024) })
    expectFailure(await post(t, path, body), 413, 'Payload too large')
  })

  test('a body just under 64 KiB is accepted', async () => {
    const base = JSON.stringify({ ...valid[path], pad: '' })
    const body = JSON.stringify({ ...valid[path], pad: 'x'.repeat(64 * 1024 - base.length) })
    expect(body.length).toBe(64 * 1024)
    expect((await post(t, path, body)).status).toBe(200)
  })

  test('no key at all is 401 API key missing', async () => {
    expectFailure(await post(t, path, valid[path], {}), 401, 'API key missing')
  })

  test('an empty header and an empty body key are missing too', async () => {
    expectFailure(await post(t, path, { ...valid[path], api_key: '' }, { 'x-api-key': '' }), 401, 'API key missing')
  })

  test.each([
    ['an unknown key', 'no-such-key'],
    ['a revoked key', TEST_KEYS.revoked],
  ])('%s in the header is 401 Invalid API key', async (_, key) => {
    expectFailure(await post(t, path, valid[path], { 'x-api-key': key }), 401, 'Invalid API key')
  })

  test('the key in the body works when there is no header', async () => {
    const r = await post(t, path, { ...valid[path], api_key: TEST_KEYS.acme }, {})
    expect(r.status).toBe(200)
  })

  test('a header with a wrong key is 401 even when the body holds a good one', async () => {
    expectFailure(await post(t, path, { ...valid[path], api_key: TEST_KEYS.acme }, { 'x-api-key': 'wrong' }), 401, 'Invalid API key')
  })

  test('with a good header, a body api_key that is null is ignored and one of another type is a field error', async () => {
    expect((await post(t, path, { ...valid[path], api_key: null })).status).toBe(200)
    expectFailure(await post(t, path, { ...valid[path], api_key: 123 }), 400, 'api_key must be a string')
  })

  test('a trailing slash is the same route, so other methods are 405 there too', async () => {
    expect((await post(t, `${path}/`, valid[path])).status).toBe(200)
    expect((await send(`${path}/`, { method: 'GET' })).status).toBe(405)
  })

  test('a non-string body key is 401 Invalid API key', async () => {
    expectFailure(await post(t, path, { ...valid[path], api_key: 12345 }, {}), 401, 'Invalid API key')
  })

  test('a revoked key in the body is refused', async () => {
    expectFailure(await post(t, path, { ...valid[path], api_key: TEST_KEYS.revoked }, {}), 401, 'Invalid API key')
  })

  test('a key answered before is refused as soon as a sync revokes it', async () => {
    const own = testApp()
    expect((await post(own, path, valid[path])).status).toBe(200) // the key is now remembered
    expect((await post(own, path, valid[path])).status).toBe(200)
    own.db.$client.run("UPDATE integrations SET is_active = 0 WHERE name = 'Acme Partner'")
    expectFailure(await post(own, path, valid[path]), 401, 'Invalid API key')
  })

  test('a body key is not trimmed', async () => {
    expectFailure(await post(t, path, { ...valid[path], api_key: `${TEST_KEYS.acme} ` }, {}), 401, 'Invalid API key')
  })

  test('the header name is case-insensitive', async () => {
    expect((await post(t, path, valid[path], { 'X-Api-Key': TEST_KEYS.acme })).status).toBe(200)
    expect((await post(t, path, valid[path], { 'X-API-KEY': TEST_KEYS.acme })).status).toBe(200)
  })

  test('a missing key wins over a bad field (decision 2)', async () => {
    expectFailure(await post(t, path, { ...valid[path], page: 0, from_date: 'bad' }, {}), 401, 'API key missing')
  })

  test("a bad field with a good key is 400 with the field's message", async () => {
    const [bad, message] =
      path === '/products/filter' ? [{ page: 0 }, 'page must be a positive integer']
      : path === '/listing/changes' ? [{ limit: 0 }, 'limit must be a positive integer']
      : [{ from_date: '2025-02-30' }, 'Dates must be in YYYY-MM-DD format']
    expectFailure(await post(t, path, { ...valid[path], ...bad }), 400, message)
  })

  test('a sane X-Request-Id is echoed; an insane one is replaced', async () => {
    const echoed = await post(t, path, valid[path], { 'x-api-key': TEST_KEYS.acme, 'x-request-id': 'abc-123' })
    expect(echoed.res.headers.get('x-request-id')).toBe('abc-123')
    const replaced = await post(t, path, valid[path], { 'x-api-key': TEST_KEYS.acme, 'x-request-id': 'has space' })
    expect(replaced.res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const failed = await post(t, path, '{', { 'x-request-id': 'err-1' })
    expect(failed.res.headers.get('x-request-id')).toBe('err-1')
  })

  test('no CORS headers are sent', async () => {
    const r = await post(t, path, valid[path], { 'x-api-key': TEST_KEYS.acme, origin: 'https://evil.example.com' })
    expect(r.res.headers.get('access-control-allow-origin')).toBeNull()
  })

  test.each([['text/plain'], [null]])('a JSON body sent as %s is read as JSON', async (type) => {
    const headers: Record<string, string> = { 'x-api-key': TEST_KEYS.acme }
    if (type) headers['content-type'] = type
    const res = await send(path, { method: 'POST', headers, body: JSON.stringify(valid[path]) })
    expect(res.status).toBe(200)
  })

  test('unknown fields are ignored', async () => {
    expect((await post(t, path, { ...valid[path], unexpected: { nested: true } })).status).toBe(200)
  })
})

describe('outside the API routes', () => {
  test('an unknown path is 404 Not found in the envelope', async () => {
    expectFailure(await post(t, '/listing/nothing', {}), 404, 'Not found')
    const res = await send('/', { method: 'GET' })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ code: 404, status: false, message: 'Not found' })
  })

  test('a request id of 129 characters is replaced', async () => {
    const r = await post(t, '/products/filter', {}, { 'x-api-key': TEST_KEYS.acme, 'x-request-id': 'a'.repeat(129) })
    expect(r.res.headers.get('x-request-id')).not.toBe('a'.repeat(129))
  })
})

describe('server-side failures', () => {
  test('a 500 says only Internal Server Error, and the detail goes to the log', async () => {
    const broken = testApp()
    broken.db.$client.run('DROP TABLE products')
    const r = await post(broken, '/products/filter', {})
    expectFailure(r, 500, 'Internal Server Error')
    expect(r.text).not.toContain('products')
    expect(broken.errors.join('\n')).toContain('no such table: products')
  })

  // Answers are serialised by the service, not checked by Elysia at run time
  // (src/http/errors.ts, answer); the suite's own check stands in for it.
  test('an answer that breaks its documented schema fails the suite', async () => {
    const broken = testApp()
    broken.db.$client.run('UPDATE metrics SET website_clicks = 1.5 WHERE website_id = 101')
    const res = await broken.app.handle(
      new Request('http://localhost/listing/daywise', {
        method: 'POST',
        headers: { 'x-api-key': TEST_KEYS.acme },
        body: JSON.stringify({ from_date: '2025-01-01', to_date: '2025-01-31', storelookup: tokenFor(broken, 101) }),
      }),
    )
    const json = await res.json()
    expect(() => expectDocumented(broken, '/listing/daywise', res.status, json)).toThrow('Expected integer')
  })

  test("the suite's check refuses a field the schema lacks and a status the route does not document", async () => {
    const ok = await post(t, '/listing/dealer', valid['/listing/dealer'])
    expect(() => expectDocumented(t, '/listing/dealer', 200, { ...ok.json, extra: 1 })).toThrow()
    expect(() => expectDocumented(t, '/listing/dealer', 200, { ...ok.json, data: [{ ...ok.json.data[0], extra: 1 }] })).toThrow()
    expect(() => expectDocumented(t, '/listing/dealer', 404, { code: 404, status: false, message: 'Not found' })).toThrow() // the dealer lookup has no 404
    expectDocumented(t, '/listing/dealer', 200, ok.json)
  })

  test('the key never reaches the error log', async () => {
    // two apps: each logs its first unexpected error of a kind
    const inBody = testApp()
    const inHeader = testApp()
    for (const broken of [inBody, inHeader]) broken.db.$client.run('DROP TABLE products')
    await post(inBody, '/products/filter', { api_key: TEST_KEYS.acme }, {})
    await post(inHeader, '/products/filter', {}, { 'x-api-key': TEST_KEYS.acme })
    const errors = [...inBody.errors, ...inHeader.errors]
    expect(errors.length).toBe(2)
    expect(errors.join('\n')).not.toContain(TEST_KEYS.acme)
  })

  test('an unexpected error is logged with its stack once a minute per kind, and every one is counted', async () => {
    const broken = testApp()
    broken.db.$client.run('DROP TABLE products')
    for (let i = 0; i < 5; i++) expect((await post(broken, '/products/filter', {})).status).toBe(500)
    expect(broken.errors).toHaveLength(1)
    expect(broken.errors[0]).toContain('no such table: products')
    expect(broken.errors[0]).toMatch(/\\n +at /) // the stack
    const metrics = await (await broken.app.handle(new Request('http://localhost/metrics'))).text()
    expect(metrics).toContain('listing_api_unexpected_errors_total{endpoint="/products/filter"} 5')
  })

  test('after a quiet minute the next one of a kind is logged again, saying how many were left out', () => {
    const { UnexpectedErrors } = require('../src/http/unexpected') as typeof import('../src/http/unexpected')
    let now = 0
    const lines: Record<string, unknown>[] = []
    let counted = 0
    const errors = new UnexpectedErrors({ error: (_, f) => lines.push(f!) }, () => counted++, () => now)
    const same = Array.from({ length: 4 }, () => new Error('boom')) // one kind: thrown from one place
    for (let i = 0; i < 3; i++) errors.report(same[i], '/x', `r${i}`)
    expect(lines.map((l) => l.request_id)).toEqual(['r0'])
    now += 60_000
    errors.report(same[3], '/x', 'r3')
    errors.report(new TypeError('another kind'), '/x', 'r4')
    expect(lines.map((l) => [l.request_id, l.same_kind_since_last_logged])).toEqual([['r0', 0], ['r3', 2], ['r4', 0]])
    expect(counted).toBe(5)
  })
})
