// Decision 32: no input yields a 5xx. Generated hostile requests (test/fuzz.ts)
// against every endpoint, in process and over HTTP: each answer is a 2xx or 4xx
// in the exact envelope, nothing unexpected reaches the error log, and good
// requests are answered afterwards exactly as before. FUZZ_RUNS sets the count
// (bun run fuzz runs many more).
import { afterAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { startServer } from '../src/http/server'
import { createLogger } from '../src/log'
import { bodyText, hostileRequest, problemWith, type HostileRequest } from './fuzz'
import { expectDocumented, testApp, TEST_KEYS, tokenFor } from './helpers'

const RUNS = Number(process.env.FUZZ_RUNS ?? 400)
const t = testApp()
const logged: string[] = []
const server = startServer(t.deps, '127.0.0.1', 0, createLogger('warn', (line) => logged.push(line)))
afterAll(() => server.stop(true))

const GOOD: [string, object][] = [
  ['/listing/listingtiles', { from_date: '2025-01-01', to_date: '2025-01-31' }],
  ['/listing/dealer', { from_date: '2025-01-01', to_date: '2025-01-31', sap_code: 'D100' }],
  ['/listing/employee', { from_date: '2025-01-01', to_date: '2025-01-31', emp_code: 'E1' }],
  ['/listing/daywise', { from_date: '2025-01-01', to_date: '2025-01-31', storelookup: tokenFor(t, 101) }],
  ['/listing/calls', { from_date: '2025-01-01', to_date: '2025-01-31', storelookup: tokenFor(t, 101), limit: 2 }],
  ['/products/filter', { color: 'White' }],
]
const goodAnswers = async () =>
  Promise.all(GOOD.map(async ([path, body]) => {
    const res = await t.app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'x-api-key': TEST_KEYS.acme }, body: JSON.stringify(body) }))
    return { status: res.status, body: await res.text() }
  }))
const before = await goodAnswers()

async function check(r: HostileRequest, res: Response): Promise<void> {
  const text = await bodyText(res)
  const problem = problemWith(res.status, res.headers.get('content-type'), text)
  if (problem) throw new Error(`${r.method} ${r.path} ${JSON.stringify(r.headers)} ${r.body.slice(0, 300)}: ${problem}`)
  if (text !== '' && r.method === 'POST') expectDocumented(t, r.path, res.status, JSON.parse(text))
}

const init = (r: HostileRequest): RequestInit => ({ method: r.method, headers: r.headers, body: r.method === 'GET' || r.method === 'HEAD' ? undefined : r.body })

describe('hostile requests', () => {
  test(`${RUNS} in process: each a 2xx or 4xx in the envelope`, async () => {
    await fc.assert(fc.asyncProperty(hostileRequest(TEST_KEYS.acme), async (r) => check(r, await t.app.handle(new Request(`http://localhost${r.path}`, init(r))))), { numRuns: RUNS })
    expect(t.errors).toEqual([]) // nothing unexpected happened
  }, 600_000)

  test(`${Math.ceil(RUNS / 4)} over HTTP: each a 2xx or 4xx in the envelope`, async () => {
    const base = `http://127.0.0.1:${server.port}`
    await fc.assert(
      fc.asyncProperty(hostileRequest(TEST_KEYS.acme), async (r) => check(r, (await fetch(`${base}${r.path}`, { ...init(r), decompress: false } as RequestInit)) as unknown as Response)),
      { numRuns: Math.ceil(RUNS / 4) },
    )
    expect(logged).toEqual([])
  }, 600_000)

  test('good requests are answered afterwards exactly as before', async () => {
    expect(await goodAnswers()).toEqual(before)
  })
})
