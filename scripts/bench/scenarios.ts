// The benchmark's scenarios: for each, its path, the share of the ceiling issue 12
// asks of one worker, and the request bodies it rotates over, read from a synced
// read store (bench.ts over HTTP, bench-inprocess.ts through app.handle).
import type { Store } from '../../src/store/open'
import { createChangesCursors } from '../../src/changesCursor'
import { createStorelookup } from '../../src/storelookup'

export const BENCH_SECRET = 'bench-storelookup-secret-0123456789abcdef'
/**
 * How the scripts run `serve` to measure it (bench.ts, profile-serve.ts, bench-ab.ts): no rate limit, and no
 * access-log line a request, which would go to the measuring script's pipe and be measured too.
 * A script that waits for serve's own log lines (a scheduled sync's) sets LOG_LEVEL 'info'.
 */
export const BENCH_SERVE_ENV = { STORELOOKUP_SECRET: BENCH_SECRET, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MIN: '0' }
/** the integration whose key (seed-master's benchKey) the benchmark sends */
export const INTEGRATION_ID = 2

export interface Scenario {
  name: string
  path: string
  /** issue 12: the share of the ceiling one worker must reach */
  target: number
  ours: object[]
  legacy: object[]
}

// issue 12's targets: small answers, 50-row call-history pages, bulk answers
const SMALL = 0.3
const HISTORY = 0.1
const BULK = 0.05

/** Every scenario's bodies, from the data of the store. */
export function benchScenarios(store: Store, secret = BENCH_SECRET): Scenario[] {
  const q = <T>(sql: string) => store.$client.query(sql).all() as T[]
  const storelookup = createStorelookup(secret)
  const stores = q<{ website_id: number; sap_code: string }>('SELECT website_id, sap_code FROM stores WHERE visible = 1 ORDER BY website_id').filter((_, i) => i % 20 === 0).slice(0, 500)
  const dealers = [...new Set(stores.map((s) => s.sap_code))]
  const employees = q<{ emp_code: string }>(`SELECT e.emp_code FROM employee_dealers e JOIN employees x ON x.emp_code = e.emp_code AND x.is_active = 1
    GROUP BY e.emp_code HAVING count(*) BETWEEN 9 AND 11 ORDER BY e.emp_code LIMIT 200`).map((r) => r.emp_code)
  const colours = q<{ color: string; finish: string }>("SELECT DISTINCT color, finish FROM products WHERE status = 1 AND color IS NOT NULL AND finish IS NOT NULL").slice(0, 40)
  const lastDay = (store.$client.query('SELECT max(day) AS d FROM call_days').get() as { d: string }).d
  const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
  const YEAR = { from_date: shift(lastDay, -364), to_date: lastDay }
  const months = Array.from({ length: 12 }, (_, i) => {
    const start = new Date(Date.UTC(+lastDay.slice(0, 4), +lastDay.slice(5, 7) - 2 - i, 1))
    const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0))
    return { from_date: start.toISOString().slice(0, 10), to_date: end.toISOString().slice(0, 10) }
  })
  const token = (websiteId: number) => storelookup.seal(INTEGRATION_ID, websiteId)
  const minuteOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 60_000 // call_minutes counts minutes since 1970
  const yearTotal = Number((store.$client.query(`SELECT (SELECT cum_answered + cum_missed + cum_offline FROM call_minutes WHERE minute < ${minuteOf(shift(YEAR.to_date, 1))} ORDER BY minute DESC LIMIT 1)
    - coalesce((SELECT cum_answered + cum_missed + cum_offline FROM call_minutes WHERE minute < ${minuteOf(YEAR.from_date)} ORDER BY minute DESC LIMIT 1), 0) AS n`).get() as { n: number }).n)
  const lastPage = Math.ceil(yearTotal / 50)
  const range = (n: number) => Array.from({ length: n }, (_, i) => i)
  // change feed cursors: along a walk from the beginning, and along the walk over the last run (a day's changes)
  const cursors = createChangesCursors(secret)
  const origin = (store.$client.query("SELECT value FROM meta WHERE key = 'feed:origin'").get() as { value: string }).value
  const runs = (store.$client.query('SELECT seq FROM feed_syncs ORDER BY seq').all() as { seq: number }[]).map((r) => r.seq)
  const head = runs.at(-1)!
  const runBeforeSeq = (seq: number) => runs.filter((r) => r < seq).at(-1) ?? 0
  const cursorAt = (seq: number, callLogId: string) => ({ cursor: cursors.seal({ origin, after: { seq, callLogId }, base: runBeforeSeq(seq), head }), limit: 1000 })
  const feedPositions = (where: string, every: number) => {
    const out: { feed_seq: number; call_log_id: string }[] = []
    let i = 0
    for (const p of store.$client.query(`SELECT feed_seq, call_log_id FROM calls INDEXED BY calls_feed ${where} ORDER BY feed_seq, call_log_id`).iterate() as Iterable<{ feed_seq: number; call_log_id: string }>) {
      if (i++ % every === 0) out.push(p)
    }
    return out
  }
  const totalCalls = (store.$client.query('SELECT count(*) AS n FROM calls').get() as { n: number }).n
  const walkFromStart = [{ limit: 1000 }, ...feedPositions('', Math.ceil(totalCalls / 240)).map((p) => cursorAt(p.feed_seq, p.call_log_id))]
  const dayOld = (() => {
    const before = runBeforeSeq(head)
    const last = store.$client.query('SELECT call_log_id FROM calls INDEXED BY calls_feed WHERE feed_seq = ? ORDER BY call_log_id DESC LIMIT 1').get(before) as { call_log_id: string } | null
    const start = last ? [cursorAt(before, last.call_log_id)] : []
    return [...start, ...feedPositions(`WHERE feed_seq = ${head}`, 1000).slice(1).map((p) => cursorAt(p.feed_seq, p.call_log_id))]
  })()
  const dayItems = (store.$client.query('SELECT count(*) AS n FROM calls INDEXED BY calls_feed WHERE feed_seq = ?').get(head) as { n: number }).n

  const scenarios: Scenario[] = [
    { name: 'call history, one month, no filter', path: '/listing/listingtiles', target: HISTORY,
      ours: range(240).map((i) => ({ ...months[i % 12], page: 1 + Math.floor(i / 12) })), legacy: [] },
    { name: 'call history, one day, no filter', path: '/listing/listingtiles', target: HISTORY,
      ours: range(240).map((i) => ({ from_date: shift(lastDay, -i), to_date: shift(lastDay, -i) })), legacy: [] },
    { name: 'call history, one year, by sap_code', path: '/listing/listingtiles', target: HISTORY,
      ours: dealers.map((sap_code) => ({ ...YEAR, sap_code })), legacy: [] },
    { name: 'call history, one year, substatus missed', path: '/listing/listingtiles', target: HISTORY,
      ours: range(240).map((i) => ({ ...YEAR, substatus: 'missed', page: 1 + i * 17 })), legacy: [] },
    { name: 'call history, one year, last pages', path: '/listing/listingtiles', target: HISTORY,
      ours: range(100).map((i) => ({ ...YEAR, page: lastPage - i })), legacy: [] },
    { name: 'dealer lookup, one year', path: '/listing/dealer', target: SMALL, ours: dealers.map((sap_code) => ({ ...YEAR, sap_code })), legacy: [] },
    { name: 'employee lookup, ten dealers, one year', path: '/listing/employee', target: SMALL, ours: employees.map((emp_code) => ({ ...YEAR, emp_code })), legacy: [] },
    { name: 'employee lookup, ten dealers, one week', path: '/listing/employee', target: SMALL,
      ours: employees.map((emp_code) => ({ from_date: shift(lastDay, -6), to_date: lastDay, emp_code })), legacy: [] },
    { name: 'employee lookup, 150 dealers, one year', path: '/listing/employee', target: BULK, ours: [{ ...YEAR, emp_code: 'EMP00001' }], legacy: [] },
    { name: 'day-wise, 366 days', path: '/listing/daywise', target: BULK,
      ours: stores.map((s) => ({ from_date: shift(lastDay, -365), to_date: lastDay, storelookup: token(s.website_id), limit: 366 })), legacy: [] },
    { name: 'call log, one year, 500 rows', path: '/listing/calls', target: BULK,
      ours: stores.map((s) => ({ ...YEAR, storelookup: token(s.website_id), limit: 500 })), legacy: [] },
    { name: 'product filter, no filter', path: '/products/filter', target: SMALL, ours: range(50).map((i) => ({ page: 1 + i })), legacy: [] },
    { name: 'product filter, two filters', path: '/products/filter', target: SMALL, ours: colours.map((c) => ({ color: c.color, finish: c.finish })), legacy: [] },
    // the change feed: answers of 1000 items all along a walk, held to the bulk answers' share
    { name: 'change feed, walk from the beginning, limit 1000', path: '/listing/changes', target: BULK, ours: walkFromStart, legacy: [] },
    { name: `change feed, walk from a cursor one day old (${dayItems} items), limit 1000`, path: '/listing/changes', target: BULK, ours: dayOld, legacy: [] },
  ]
  // the legacy service took a store id where we take a storelookup
  for (const s of scenarios) {
    s.legacy = s.ours.map((b: any) => {
      if (!b.storelookup) return b
      const { storelookup: t, ...rest } = b
      return { ...rest, website_id: storelookup.open(INTEGRATION_ID, t) }
    })
  }
  return scenarios
}
