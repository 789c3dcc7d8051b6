// GET /health (decision 29): no key, no data; the last sync run and how old the data is.
import { Elysia, t } from 'elysia'
import { dataAsOf } from '../../store/freshness'
import { readSnapshot } from '../../store/snapshot'
import { lastSyncRuns } from '../../store/syncRuns'
import type { ApiDeps } from '../context'

const Health = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('degraded')]),
  data_as_of: t.Nullable(t.String({ description: "The master's clock when the snapshot behind the served data was read: the same value every API answer carries; null before the first sync" })),
  last_sync: t.Nullable(
    t.Object({ started_at: t.String(), finished_at: t.Nullable(t.String()), ok: t.Nullable(t.Boolean()), error: t.Nullable(t.String()) }),
  ),
})

export const health = (deps: ApiDeps) =>
  new Elysia().get(
    '/health',
    ({ set }) =>
      // one snapshot: the run record and data_as_of agree
      readSnapshot(deps.db, () => {
        const { last, lastOk } = lastSyncRuns(deps.db)
        // staleness by this machine's clock: the start of the last good run
        const lastGood = lastOk?.started_at ?? null
        const stale = lastGood === null ? deps.expectSync : Date.now() - Date.parse(lastGood) > deps.staleAfterSeconds * 1000
        // a run still under way (no finished_at) is not a failure
        const failed = last !== null && last.ok === false
        set.headers['content-type'] = 'application/json; charset=utf-8'
        set.headers['cache-control'] = 'no-store'
        return { status: stale || failed ? ('degraded' as const) : ('ok' as const), data_as_of: dataAsOf(deps.db), last_sync: last }
      }),
    { response: { 200: Health }, detail: { hide: true } },
  )
