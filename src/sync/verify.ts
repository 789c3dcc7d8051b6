// Verification after an incremental run: the master's snapshot against the
// read store. The row counts of the two large tables, and every field of one
// window of calls (by master id) and of listing rows (by store) per run; the
// windows move on each run and wrap, so over several runs every row is
// checked. Rows that differ are written again through the run's Changes and
// counted as repaired; when the call counts differ, every call is read and
// calls the master no longer has are removed. (The small tables are compared whole every
// run, by their fingerprints: sync/run.ts.)
import type { Changes } from '../store/changes'
import type { SyncRun } from '../store/syncRun'
import { queryRows, streamRows, type Master } from './master'
import { selectFrom, type LargeRow } from './masterTables'

/**
 * Calls (by master id) whose every field each run compares with the master, and about as
 * many listing rows: 20 million calls are all checked in about 400 runs (4 days at 15
 * minutes), at about half a second a run.
 */
export const VERIFY_WINDOW = 50_000

/** The master's side of the counts, asked while the store refreshes its derived rows. */
export const MASTER_COUNTS = 'SELECT (SELECT count(*) FROM call_logs) AS calls, (SELECT count(*) FROM listing_daily_metrics) AS metrics, (SELECT max(id) FROM call_logs) AS maxId'
export interface MasterCounts {
  calls: number
  metrics: number
  maxId: number | null
}

export async function verify(master: Master, run: SyncRun, changes: Changes, { calls, metrics, maxId }: MasterCounts, window: number): Promise<number> {
  let repaired = 0
  const local = run.rowCounts()
  if (Number(metrics) !== local.metrics) {
    // listing rows are never deleted in the master, so a count gap means rows were missed: read them all again
    for await (const rows of streamRows<LargeRow<'listing_daily_metrics'>>(master, selectFrom('listing_daily_metrics'))) repaired += changes.metrics(rows)
  }
  const whole = Number(calls) !== local.calls
  const from = whole ? 0 : Number(run.meta('verify:call_logs') ?? 0)
  const to = whole ? Number.MAX_SAFE_INTEGER : from + window
  // a whole pass also finds calls the master lost (a hard delete, which §3 rules out but a
  // copy must survive): without it the counts would differ, and force this pass, forever
  const sweep = whole ? changes.sweep() : undefined
  for await (const rows of streamRows<LargeRow<'call_logs'>>(master, `${selectFrom('call_logs')} WHERE id > ? AND id <= ?`, [from, to])) {
    sweep?.seen(rows)
    repaired += changes.calls(rows)
  }
  if (sweep) repaired += sweep.finish()
  run.setMeta('verify:call_logs', String(whole || to >= Number(maxId ?? 0) ? 0 : to))

  // listing rows: every field of a window of stores (about as many rows as the calls window)
  const [{ maxStore }] = await queryRows<{ maxStore: number | null }>(master, 'SELECT max(website_id) AS maxStore FROM listing_daily_metrics')
  const storeFrom = Number(run.meta('verify:listing_daily_metrics') ?? 0)
  const storeTo = storeFrom + Math.max(1, Math.ceil(window / 730))
  for await (const rows of streamRows<LargeRow<'listing_daily_metrics'>>(master, `${selectFrom('listing_daily_metrics')} WHERE website_id > ? AND website_id <= ?`, [storeFrom, storeTo])) {
    repaired += changes.metrics(rows)
  }
  run.setMeta('verify:listing_daily_metrics', String(storeTo >= Number(maxStore ?? 0) ? 0 : storeTo))
  return repaired
}
