// Callers: a call's place in its caller's sequence, prev_calls_count, across
// every call of the master, visible or not (master-contract §2), and in the
// callers table its lifetime total: its last call's place + 1, with the run
// that last changed it. The full load numbers every call as it sorts them into
// place, then counts callers from the calls_mobile index; an incremental run
// renumbers each touched caller from its earliest touched place and writes its
// new total. A caller whose calls all went (to another number, or out of the
// master) keeps a row with total 0, so a server taking in only the changed
// totals (store/callerTotals.ts) learns of it too. A full load over a loaded
// store writes every caller afresh (callerTotals.ts then reads them all again).
import type { Database } from 'bun:sqlite'
import { int } from '../bound'

export { mobileOf } from '../callCodec'

/** The full load's side: each call's place, as a window over the whole calls table. */
export const PLACE_IN_SEQUENCE_SQL = 'row_number() OVER (PARTITION BY mobile ORDER BY start, call_log_id) - 1'

/** The full load's side: every caller's total, from the places the calls were given (one pass over calls_mobile). */
export function buildCallers(client: Database, seq: number): void {
  client.run('DELETE FROM callers')
  client.run(`INSERT INTO callers (mobile, total, seq) SELECT mobile, max(prev_calls_count) + 1, ${Number(seq)} FROM calls INDEXED BY calls_mobile GROUP BY mobile`)
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

/**
 * Where a place (start, call_log_id) lies among its caller's stored calls: how many come before
 * it (the number a call there takes) and whether any comes after. One statement, two seeks of
 * calls_mobile on the same page. An incremental run inserts a call numbered so; when none comes
 * after (the usual new call, its caller's last), renumbering has nothing to read for it.
 */
export function placeAmongCalls(client: Database): (mobile: number, start: number | string, callLogId: string) => { before: number; last: boolean } {
  const seek = client.query<{ n: number; later: number }, [number, number | string, string]>(`SELECT
    coalesce((SELECT prev_calls_count + 1 FROM calls INDEXED BY calls_mobile
      WHERE mobile = ${int(1)} AND (start, call_log_id) < (?2, ?3) ORDER BY start DESC, call_log_id DESC LIMIT 1), 0) AS n,
    EXISTS (SELECT 1 FROM calls INDEXED BY calls_mobile WHERE mobile = ${int(1)} AND (start, call_log_id) > (?2, ?3)) AS later`)
  return (mobile, start, callLogId) => {
    const { n, later } = seek.get(mobile, start, callLogId)!
    return { before: n, last: later === 0 }
  }
}

/**
 * An incremental run's side: each caller renumbered from its earliest touched place (a new
 * call is usually its last). A call whose place changed takes the run's feed position `seq`,
 * and so does each caller whose total changed.
 */
export function renumberCallers(client: Database, earliest: Map<number, Place>, seq: number): void {
  const placeOf = placeAmongCalls(client)
  const after = client.query(`SELECT start, call_log_id, prev_calls_count FROM calls INDEXED BY calls_mobile
    WHERE mobile = ${int(1)} AND (start, call_log_id) >= (?2, ?3)
    ORDER BY start, call_log_id`)
  // a call of a visible store moves in the feed; one of an invisible store is in no copy (a store
  // that turned invisible this run moves all its calls anyway: store/feed.ts; calls.visible is
  // up to date by now: changes.ts marks the stores that turned first)
  const setPlace = client.query(`UPDATE calls SET prev_calls_count = ?1,
    feed_seq = iif(visible = 1, ?2, feed_seq) WHERE start = ?3 AND call_log_id = ?4`)
  const setTotal = client.query('INSERT INTO callers (mobile, total, seq) VALUES (?1, ?2, ?3) ON CONFLICT (mobile) DO UPDATE SET total = ?2, seq = ?3 WHERE total <> ?2')
  for (const [mobile, place] of [...earliest].sort((a, b) => a[0] - b[0])) {
    if (place.last && place.before !== undefined) {
      // the call went in numbered `before`, its caller's last: the total follows, and no call moves
      setTotal.run(mobile, place.before + 1, seq)
      continue
    }
    let n = place.before ?? placeOf(mobile, place.start, place.callLogId).before
    // read before writing: prev_calls_count is part of the index being walked
    for (const r of after.all(mobile, place.start, place.callLogId) as { start: number | string; call_log_id: string; prev_calls_count: number }[]) {
      if (r.prev_calls_count !== n) setPlace.run(n, seq, r.start, r.call_log_id)
      n++
    }
    // n is now the caller's total: 0 when all its calls moved to another number or left the master
    setTotal.run(mobile, n, seq)
  }
}
