// GET /health (decision 29): no key, no data; the last sync run and how old the data is.
import { Elysia, t } from 'elysia'
import { lastSyncRuns } from '../../store/syncRuns'
import type { ApiDeps } from '../context'

const Health = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('degraded')]),
  data_as_of: t.Nullable(t.String({ description: 'When the snapshot behind the served data was taken (start of the last good sync)' })),
  last_sync: t.Nullable(
    t.Object({ started_at: t.String(), finished_at: t.Nullable(t.String()), ok: t.Nullable(t.Boolean()), error: t.Nullable(t.String()) }),
  ),
})

export const health = (deps: ApiDeps) =>
  new Elysia().get(
    '/health',
    ({ set }) => {
      const { last, lastOk } = lastSyncRuns(deps.db)
      const dataAsOf = lastOk?.started_at ?? null
      const stale = dataAsOf === null ? deps.expectSync : Date.now() - Date.parse(dataAsOf) > deps.staleAfterSeconds * 1000
      // a run still under way (no finished_at) is not a failure
      const failed = last !== null && last.ok === false
      set.headers['content-type'] = 'application/json; charset=utf-8'
      set.headers['cache-control'] = 'no-store'
      return { status: stale || failed ? ('degraded' as const) : ('ok' as const), data_as_of: dataAsOf, last_sync: last }
    },
    { response: { 200: Health }, detail: { hide: true } },
  )
