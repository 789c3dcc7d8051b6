// GET /health (decision 29), in process over the fixture store: ok or degraded
// by the last run and the age of the last good one, for serve (which expects a
// sync) and demo (which does not).
import { describe, expect, test } from 'bun:test'
import { TEST_DATA_AS_OF } from '../db/fixtures/test'
import { istNow, setDataAsOf } from '../src/store/freshness'
import { testApp } from './helpers'

const HOUR = 3600_000
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString()
const masterClock = (isoTime: string) => istNow(Date.parse(isoTime))

function appWithRuns(runs: { ago: number; ok: 0 | 1 | null; error?: string }[], options = { staleAfterSeconds: 86_400, expectSync: true }) {
  const t = testApp(options)
  const started = runs.map((r) => iso(r.ago))
  runs.forEach((r, i) => {
    t.db.$client.run('INSERT INTO sync_runs (started_at, finished_at, ok, error) VALUES (?, ?, ?, ?)', [started[i], r.ok === null ? null : iso(r.ago - 60_000), r.ok, r.error ?? null])
    // as a good run commits it: the master's clock at its snapshot (here: its start, in IST)
    if (r.ok === 1) setDataAsOf(t.db.$client, masterClock(started[i]))
  })
  return Object.assign(async () => (await (await t.app.handle(new Request('http://localhost/health'))).json()) as any, { started })
}

describe('/health', () => {
  test('a recent good run: ok, data as of its snapshot', async () => {
    const health = await appWithRuns([{ ago: HOUR, ok: 1 }])()
    expect(health.status).toBe('ok')
    expect(health.data_as_of).toBe(masterClock(health.last_sync.started_at))
  })

  test('data older than STALE_AFTER: degraded, though the run itself was good', async () => {
    expect((await appWithRuns([{ ago: 25 * HOUR, ok: 1 }])()).status).toBe('degraded')
    expect((await appWithRuns([{ ago: 3 * HOUR, ok: 1 }], { staleAfterSeconds: 2 * 3600, expectSync: true })()).status).toBe('degraded')
    expect((await appWithRuns([{ ago: 1 * HOUR, ok: 1 }], { staleAfterSeconds: 2 * 3600, expectSync: true })()).status).toBe('ok')
  })

  test('the last run failed: degraded, still reporting the last good data', async () => {
    const ask = appWithRuns([{ ago: 2 * HOUR, ok: 1 }, { ago: HOUR, ok: 0, error: 'connect ECONNREFUSED' }])
    const health = await ask()
    expect(health.status).toBe('degraded')
    expect(health.last_sync).toMatchObject({ ok: false, error: 'connect ECONNREFUSED' })
    expect(health.data_as_of).toBe(masterClock(ask.started[0]))
  })

  test('a run under way is not a failure', async () => {
    expect((await appWithRuns([{ ago: 2 * HOUR, ok: 1 }, { ago: 60_000, ok: null }])()).status).toBe('ok')
  })

  test('never synced: degraded for serve, ok for demo', async () => {
    // the fixture store was seeded, so its data has a time even though no sync ever ran
    expect(await appWithRuns([])()).toEqual({ status: 'degraded', data_as_of: TEST_DATA_AS_OF, last_sync: null })
    expect((await appWithRuns([], { staleAfterSeconds: 86_400, expectSync: false })()).status).toBe('ok')
  })

  test('data_as_of: the value the last good run committed; before any, null; a store synced by an older version reports its last good start on the master clock', async () => {
    const t = testApp({ staleAfterSeconds: 86_400, expectSync: true })
    const health = async () => ((await (await t.app.handle(new Request('http://localhost/health'))).json()) as any).data_as_of
    const dealer = async () => ((await (await t.app.handle(new Request('http://localhost/listing/dealer', { method: 'POST', headers: { 'x-api-key': 'test-key-acme' }, body: '{"sap_code":"D100","from_date":"2025-01-01","to_date":"2025-01-31"}' }))).json()) as any).data_as_of
    expect(await health()).toBe(TEST_DATA_AS_OF)
    expect(await dealer()).toBe(TEST_DATA_AS_OF)
    t.db.$client.run("DELETE FROM meta WHERE key = 'data_as_of'")
    expect(await health()).toBeNull()
    t.db.$client.run("INSERT INTO sync_runs (started_at, finished_at, ok) VALUES ('2026-03-01T10:00:00.000Z', '2026-03-01T10:01:00.000Z', 1)")
    expect(await health()).toBe('2026-03-01 15:30:00')
    expect(await dealer()).toBe('2026-03-01 15:30:00')
  })
})
