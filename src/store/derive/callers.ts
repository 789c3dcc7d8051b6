// Callers: a call's place in its caller's sequence, prev_calls_count, across
// every call of the master, visible or not (master-contract §2), and in the
// callers table its lifetime total: its last call's place + 1. The full load
// numbers every call as it sorts them into place, then counts each caller's
// calls; an incremental run places a new call from its caller's total (the
// calls after it are read from calls_mobile, by time bucket: none, for a day's
// new call), renumbers each touched caller from its earliest touched place and
// writes its new total, and each total it changed to the log caller_changes. A
// caller whose calls all went (to another number, or out of the master) keeps a
// row with total 0, so a server taking in only the changed totals
// (store/callerTotals.ts) learns of it too. A full load over a loaded store
// writes every caller afresh and empties the log (callerTotals.ts then reads
// them all again).
import type { Database } from 'bun:sqlite'
import { int } from '../bound'
import { writeMeta } from '../meta'
import { CALL_BUCKET_BITS, CALL_BUCKET_SQL, TEXT_CALL_BUCKET } from '../schema'

export { mobileOf } from '../callCodec'

/** The full load's side: each call's place, as a window over the whole calls table. */
export const PLACE_IN_SEQUENCE_SQL = 'row_number() OVER (PARTITION BY mobile ORDER BY start, call_log_id) - 1'

/** The full load's side: every caller's total, its calls counted. */
export function buildCallers(client: Database): void {
  client.run('DELETE FROM callers')
  client.run('INSERT INTO callers (mobile, total) SELECT mobile, count(*) FROM calls GROUP BY mobile')
}

/** The meta key of the run after which caller_changes holds every change (schema.ts callerChanges). */
export const CALLER_CHANGES_FROM = 'callers:changes_from'
/**
 * How long a run's changed callers stay in the log, in seconds of the runs' positions (the
 * master's clock): a server whose callers' base is older reads it again. A base is read again
 * anyway once its changes pass 50,000 callers (callerTotals.ts), about a day's at production size.
 */
export const CALLER_CHANGES_KEPT_SECONDS = 7 * 86_400

const setChangesFrom = (client: Database, seq: number) => writeMeta(client, CALLER_CHANGES_FROM, String(seq))

/** The full load's side, once its callers are written: the log empty, complete for the runs after the load's. */
export function restartCallerChanges(client: Database, seq: number): void {
  client.run('DELETE FROM caller_changes')
  setChangesFrom(client, seq)
}

/** An incremental run's side: the log's runs older than CALLER_CHANGES_KEPT_SECONDS let go, from the start of its key. */
export function pruneCallerChanges(client: Database, seq: number): void {
  const until = seq - CALLER_CHANGES_KEPT_SECONDS
  if (client.query('DELETE FROM caller_changes WHERE seq <= ?').run(until).changes > 0) setChangesFrom(client, until)
}

/** A call's place in time: (start as stored, call_log_id), ordered as SQLite orders them (numbers before text). */
export interface Place {
  start: number | string
  callLogId: string
  /**
   * the caller's calls stored before it, when this run inserted the call there (placeAmongCalls): still
   * right at renumbering while the call is its caller's earliest touched place, since any change
   * before it in the caller's sequence would have touched an earlier place
   */
  before?: number
  /**
   * when the run inserted the call there, no call of its caller came after it, and nothing else
   * of the caller was touched since: the caller's total is then before + 1, with nothing to read
   */
  last?: boolean
}

const rank = (v: number | string) => (typeof v === 'number' ? 0 : 1)
export function comparePlaces(a: Place, b: Place): number {
  if (a.start !== b.start) {
    if (rank(a.start) !== rank(b.start)) return rank(a.start) - rank(b.start)
    return a.start < b.start ? -1 : 1
  }
  return a.callLogId < b.callLogId ? -1 : a.callLogId > b.callLogId ? 1 : 0
}

/** calls_mobile's bucket of a start as stored, as CALL_BUCKET_SQL computes it (SQLite shifts the integer part). */
export const bucketOf = (start: number | string): number =>
  typeof start === 'number' ? Math.floor(Math.trunc(start) / BUCKET_SPAN) + 0 : TEXT_CALL_BUCKET // + 0: no -0
const BUCKET_SPAN = 2 ** CALL_BUCKET_BITS
/** the bucket of the smallest integer SQLite holds: a walk from a place before every call starts here */
const MIN_BUCKET = -(2 ** (63 - CALL_BUCKET_BITS))

/**
 * The buckets a caller's calls from a place on can lie in: each numeric bucket from the place's
 * on that holds a call, then the text bucket when some start is text (it orders after every
 * number). As JSON, for `IN (SELECT value FROM json_each(?))`. A seek of the calls' key for each
 * bucket found, so a lone call far in the future costs one seek, not one for each empty bucket
 * before it; a day's new call finds only the last bucket. The calls of this run count too.
 */
export function bucketsFrom(client: Database): (start: number | string) => string {
  const next = client.query<{ start: number }, [number]>(`SELECT start FROM calls WHERE start >= ${int(1)} AND start < '' ORDER BY start LIMIT 1`)
  const text = client.query<{ text: number }, []>(`SELECT EXISTS (SELECT 1 FROM calls WHERE start >= '') AS text`)
  return (start) => {
    const buckets: number[] = []
    // each step seeks the first call past the bucket found last
    let found = typeof start === 'number' ? next.get(Math.max(bucketOf(start), MIN_BUCKET) * BUCKET_SPAN) : null
    for (; found; found = next.get((buckets[buckets.length - 1] + 1) * BUCKET_SPAN)) buckets.push(bucketOf(found.start))
    if (text.get()!.text) buckets.push(TEXT_CALL_BUCKET)
    return JSON.stringify(buckets)
  }
}
const IN_BUCKETS = `${CALL_BUCKET_SQL} IN (SELECT value FROM json_each(?1)) AND mobile = ${int(2)}`

/**
 * Where a place (start, call_log_id) lies among its caller's stored calls: how many come before
 * it (the number a call there takes) and whether any comes after. The callers' total, with what
 * this run added and removed since it was written (`added`, by mobile), less the calls from the
 * place on: for a new call, its caller's last, one seek of calls_mobile's last bucket that finds
 * none. An incremental run inserts a call numbered so; when none comes after, renumbering has
 * nothing to read for it.
 */
export function placeAmongCalls(
  client: Database,
  added: ReadonlyMap<number, number>,
  buckets = bucketsFrom(client),
): (mobile: number, start: number | string, callLogId: string) => { before: number; last: boolean } {
  const total = client.query<{ total: number }, [number]>('SELECT total FROM callers WHERE mobile = ?')
  // from the place on: a call stored at the place itself is not before it
  const fromPlace = client.query<{ n: number }, [string, number, number | string, string]>(`SELECT count(*) AS n FROM calls INDEXED BY calls_mobile
    WHERE ${IN_BUCKETS} AND (start, call_log_id) >= (?3, ?4)`)
  return (mobile, start, callLogId) => {
    const after = fromPlace.get(buckets(start), mobile, start, callLogId)!.n
    const calls = (total.get(mobile)?.total ?? 0) + (added.get(mobile) ?? 0)
    return { before: calls - after, last: after === 0 }
  }
}

/**
 * An incremental run's side: each caller renumbered from its earliest touched place (a new
 * call is usually its last). A call whose place changed takes the run's feed position `seq`,
 * and each caller whose total changed goes into the log at `seq`. `added`: the run's calls added less removed by
 * mobile, not yet in the callers' totals (placeAmongCalls).
 */
export function renumberCallers(client: Database, earliest: Map<number, Place>, seq: number, added: ReadonlyMap<number, number> = new Map()): void {
  // renumbering adds no call, so the buckets from a place's on stay the same through it: found
  // once for each bucket a place lies in (a full load's callers out of order all start before every
  // call), for the walks and the places alike
  const bucketsFromPlace = bucketsFrom(client)
  const found = new Map<number, string>()
  const buckets = (start: number | string) => {
    let list = found.get(bucketOf(start))
    if (list === undefined) found.set(bucketOf(start), (list = bucketsFromPlace(start)))
    return list
  }
  const placeOf = placeAmongCalls(client, added, buckets)
  const after = client.query(`SELECT start, call_log_id, prev_calls_count FROM calls INDEXED BY calls_mobile
    WHERE ${IN_BUCKETS} AND (start, call_log_id) >= (?3, ?4)
    ORDER BY ${CALL_BUCKET_SQL}, start, call_log_id`)
  // a call of a visible store moves in the feed; one of an invisible store is in no copy (a store
  // that turned invisible this run moves all its calls anyway: store/feed.ts; calls.visible is
  // up to date by now: changes.ts marks the stores that turned first)
  const setPlace = client.query(`UPDATE calls SET prev_calls_count = ?1,
    feed_seq = iif(visible = 1, ?2, feed_seq) WHERE start = ?3 AND call_log_id = ?4`)
  const upsertTotal = client.query('INSERT INTO callers (mobile, total) VALUES (?1, ?2) ON CONFLICT (mobile) DO UPDATE SET total = ?2 WHERE total <> ?2')
  const logTotal = client.query('INSERT INTO caller_changes (seq, mobile, total) VALUES (?1, ?2, ?3) ON CONFLICT DO UPDATE SET total = ?3')
  // a caller's total, logged when it changed (a caller is renumbered once a refresh; a run may refresh twice)
  const setTotal = (mobile: number, total: number) => {
    if (upsertTotal.run(mobile, total).changes > 0) logTotal.run(seq, mobile, total)
  }
  for (const [mobile, place] of [...earliest].sort((a, b) => a[0] - b[0])) {
    if (place.last && place.before !== undefined) {
      // the call went in numbered `before`, its caller's last: the total follows, and no call moves
      setTotal(mobile, place.before + 1)
      continue
    }
    let n = place.before ?? placeOf(mobile, place.start, place.callLogId).before
    // read before writing: prev_calls_count is part of the index being walked
    for (const r of after.all(buckets(place.start), mobile, place.start, place.callLogId) as { start: number | string; call_log_id: string; prev_calls_count: number }[]) {
      if (r.prev_calls_count !== n) setPlace.run(n, seq, r.start, r.call_log_id)
      n++
    }
    // n is now the caller's total: 0 when all its calls moved to another number or left the master
    setTotal(mobile, n)
  }
}
