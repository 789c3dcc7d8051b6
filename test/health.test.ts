// GET /health (decision 29), in process over the fixture store: ok or degraded
// by the last run and the age of the last good one, for serve (which expects a
// sync) and demo (which does not).
import { describe, expect, test } from 'bun:test'
import { testApp } from './helpers'

const HOUR = 3600_000
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString()

function appWithRuns(runs: { ago: number; ok: 0 | 1 | null; error?: string }[], options = { staleAfterSeconds: 86_400, expectSync: true }) {
  const t = testApp(options)
  const started = runs.map((r) => iso(r.ago))
  runs.forEach((r, i) => {
    t.db.$client.run('INSERT INTO sync_runs (started_at, finished_at, ok, error) VALUES (?, ?, ?, ?)', [started[i], r.ok === null ? null : iso(r.ago - 60_000), r.ok, r.error ?? null])
  })
  return Object.assign(async () => (await (await t.app.handle(new Request('http://localhost/health'))).json()) as any, { started })
}

describe('/health', () => {
  test('a recent good run: ok, data as of its snapshot', async () => {
    const health = await appWithRuns([{ ago: HOUR, ok: 1 }])()
    expect(health.status).toBe('ok')
    expect(health.data_as_of).toBe(health.last_sync.started_at)
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
    expect(health.data_as_of).toBe(ask.started[0])
  })

  test('a run under way is not a failure', async () => {
    expect((await appWithRuns([{ ago: 2 * HOUR, ok: 1 }, { ago: 60_000, ok: null }])()).status).toBe('ok')
  })

  test('never synced: degraded for serve, ok for demo', async () => {
    expect(await appWithRuns([])()).toEqual({ status: 'degraded', data_as_of: null, last_sync: null })
    expect((await appWithRuns([], { staleAfterSeconds: 86_400, expectSync: false })()).status).toBe('ok')
  })
})
