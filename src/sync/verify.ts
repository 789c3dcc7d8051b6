// Verification after an incremental run: the master against the read store.
// The row counts of the two large tables (asked ahead on a connection of their
// own, or in the run's snapshot), and every field of one window of calls (by
// master id) and of listing rows (by store) per run, in the run's snapshot; the
// windows move on each run and wrap, so over several runs every row is
// checked. Rows that differ are written again through the run's Changes and
// counted as repaired; when the call counts differ, every call is read and
// calls the master no longer has are removed. (The small tables are compared whole every
// run, by their fingerprints: sync/run.ts.)
import type { Changes } from '../store/changes'
import type { SyncRun } from '../store/syncRun'
import { beginSnapshot, connectMaster, dropConnection, pauseStallClock, queryRows, restartStallClock, streamRows, type Master } from './master'
import { selectFrom, type LargeRow } from './masterTables'

/**
 * Calls (by master id) whose every field each run compares with the master, and about as
 * many listing rows: 20 million calls are all checked in about 400 runs (4 days at 15
 * minutes), at about half a second a run.
 */
export const VERIFY_WINDOW = 50_000

export interface MasterCounts {
  calls: number
  metrics: number
}
/** A count statement's row as numbers (mysql2 may give a count as text). */
const countsOf = (row: MasterCounts): MasterCounts => ({ calls: Number(row.calls), metrics: Number(row.metrics) })

/** The two large tables' rows, counted in the run's snapshot (3-5 s at production size). */
const MASTER_COUNTS = 'SELECT (SELECT count(*) FROM call_logs) AS calls, (SELECT count(*) FROM listing_daily_metrics) AS metrics'
/**
 * The same as a snapshot a moment later sees them, calls up to the run's newest id: all of them
 * less those past it (a count with `id <= ?` walks the primary key, the rows themselves: 4.6 s
 * against 2.0 for the smallest index at production size).
 */
const COUNTS_UP_TO = 'SELECT (SELECT count(*) FROM call_logs) - (SELECT count(*) FROM call_logs WHERE id > ?) AS calls, (SELECT count(*) FROM listing_daily_metrics) AS metrics'
/** The run's newest call (one seek), which the calls window wraps at. */
export const NEWEST_CALL = 'SELECT max(id) AS maxId FROM call_logs'

/** The counts asked ahead (countAhead), and a way to drop their connection. */
export interface CountsAhead {
  /** null when the connection failed or was dropped */
  counts: Promise<MasterCounts | null>
  /** drops the connection at once, its count answered or not */
  stop(): void
}

/**
 * The master's counts, asked as the run begins on a connection of their own (a snapshot of its
 * own, REPEATABLE READ as the run's), so that the master counts while the run reads and writes:
 * a day's run waited 1.6-3.4 s for them at its end. That snapshot is a moment later than the
 * run's, and calls are counted up to the run's newest id; rows committed in between raise its
 * counts, and rows never leave the two tables (master-contract §3), so they are taken only when
 * they equal the store's (`countsToCompare`). `before`: a test's hook, awaited first.
 */
export function countAhead(url: string, maxId: number | null, before?: () => Promise<void>): CountsAhead {
  let side: Master | undefined
  let stopped = false
  const drop = () => {
    if (side) dropConnection(side)
    side = undefined
  }
  let settle: (none: null) => void = () => {}
  const stoppedFirst = new Promise<null>((resolve) => (settle = resolve))
  const asked = (async () => {
    await before?.()
    if (stopped) return null
    side = await connectMaster(url)
    if (stopped) return null
    await beginSnapshot(side)
    return countsOf((await queryRows<MasterCounts>(side, COUNTS_UP_TO, [maxId ?? 0]))[0])
  })()
    .catch(() => null)
    .finally(drop)
  return {
    // a stop settles them at once, whatever they still wait for
    counts: Promise.race([asked, stoppedFirst]),
    stop: () => {
      stopped = true
      drop()
      settle(null)
    },
  }
}

/** A promise's value, or null when it has not settled within `ms` (the timer never outlives it). */
function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)))
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/**
 * The counts verification compares the store with: those asked ahead when they equal the
 * store's (the usual case); otherwise, or when they failed or did not come within `waitMs` of
 * verification asking, the run's own snapshot counts and decides. Under the contract, counts
 * ahead equal to the store's mean the snapshot's are too. A hard delete (which the contract rules
 * out) committed in that moment could offset a row the store lacks; the counts of later runs
 * would then agree as well, and only the rolling window finds the missing row.
 */
async function countsToCompare(master: Master, local: MasterCounts, ahead: CountsAhead, waitMs: number): Promise<MasterCounts & { countedIn: Verification['counts'] }> {
  // the run's own connection is idle meanwhile: not a silent master
  pauseStallClock(master)
  const early = await within(ahead.counts, waitMs)
  restartStallClock(master)
  ahead.stop()
  if (early && early.calls === local.calls && early.metrics === local.metrics) return { ...early, countedIn: 'ahead' }
  return { ...countsOf((await queryRows<MasterCounts>(master, MASTER_COUNTS))[0]), countedIn: 'snapshot' }
}

/** What a run's verification did, for its record. */
export interface Verification {
  repaired: number
  /** whose counts were compared: those asked ahead, or the run's snapshot's (those ahead differed from the store's, failed or were late) */
  counts: 'ahead' | 'snapshot'
  /** the call counts differed: every call was read */
  wholeCallsPass: boolean
}

/** `ahead`: the counts countAhead asked for, waited for up to `waitMs`; `maxId`: the run's newest call (NEWEST_CALL). */
export async function verify(master: Master, run: SyncRun, changes: Changes, ahead: CountsAhead, waitMs: number, maxId: number | null, window: number): Promise<Verification> {
  let repaired = 0
  const local = run.rowCounts()
  const { calls, metrics, countedIn } = await countsToCompare(master, local, ahead, waitMs)
  if (metrics !== local.metrics) {
    // listing rows are never deleted in the master, so a count gap means rows were missed: read them all again
    for await (const rows of streamRows<LargeRow<'listing_daily_metrics'>>(master, selectFrom('listing_daily_metrics'))) repaired += changes.metrics(rows)
  }
  const whole = calls !== local.calls
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
  return { repaired, counts: countedIn, wholeCallsPass: whole }
}
