// Callers: a call's `mobile` (the last 10 digits of its number) and its place
// in its caller's sequence, prev_calls_count, across every call of the master,
// visible or not (master-contract §2), and in the callers table its lifetime
// total: its last call's place + 1. The full load numbers every call as it
// sorts them into place, then counts callers from the calls_mobile index; an
// incremental run renumbers each touched caller from its earliest touched
// place and writes its new total.
import type { Database } from 'bun:sqlite'

/** master-contract §2: the last 10 digits of the digits in the caller number. */
export const mobileOf = (callerNumber: string) => callerNumber.replace(/\D+/g, '').slice(-10)

/** The full load's side: each call's place, as a window over the whole calls table. */
export const PLACE_IN_SEQUENCE_SQL = 'row_number() OVER (PARTITION BY mobile ORDER BY call_start_time, call_log_id) - 1'

/** The full load's side: every caller's total, from the places the calls were given (one pass over calls_mobile). */
export function buildCallers(client: Database): void {
  client.run('DELETE FROM callers')
  client.run('INSERT INTO callers (mobile, total) SELECT mobile, max(prev_calls_count) + 1 FROM calls INDEXED BY calls_mobile GROUP BY mobile')
}

/** A call's place in time, comparable as text: `${call_start_time}|${call_log_id}`. */
export const placeOf = (callStartTime: string, callLogId: string) => `${callStartTime}|${callLogId}`

/**
 * An incremental run's side: each caller renumbered from its earliest touched place (a new
 * call is usually its last). A call whose place changed takes the run's feed position `seq`.
 */
export function renumberCallers(client: Database, earliest: Map<string, string>, seq: number): void {
  const before = client.query(`SELECT prev_calls_count + 1 AS n FROM calls INDEXED BY calls_mobile
    WHERE mobile = ?1 AND (call_start_time, call_log_id) < (?2, ?3)
    ORDER BY call_start_time DESC, call_log_id DESC LIMIT 1`)
  const after = client.query(`SELECT call_log_id, prev_calls_count FROM calls INDEXED BY calls_mobile
    WHERE mobile = ?1 AND (call_start_time, call_log_id) >= (?2, ?3)
    ORDER BY call_start_time, call_log_id`)
  // a call of a visible store moves in the feed; one of an invisible store is in no copy (a store
  // that turned invisible this run moves all its calls anyway: store/feed.ts)
  const setPlace = client.query(`UPDATE calls SET prev_calls_count = ?1,
    feed_seq = iif(EXISTS (SELECT 1 FROM stores s WHERE s.website_id = calls.website_id AND s.visible = 1), ?2, feed_seq) WHERE call_log_id = ?3`)
  const setTotal = client.query('INSERT INTO callers (mobile, total) VALUES (?1, ?2) ON CONFLICT (mobile) DO UPDATE SET total = ?2 WHERE total <> ?2')
  const forget = client.query('DELETE FROM callers WHERE mobile = ?')
  for (const [mobile, place] of [...earliest].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const bar = place.indexOf('|')
    const time = place.slice(0, bar)
    const id = place.slice(bar + 1)
    let n = (before.get(mobile, time, id) as { n: number } | null)?.n ?? 0
    // read before writing: prev_calls_count is part of the index being walked
    for (const r of after.all(mobile, time, id) as { call_log_id: string; prev_calls_count: number }[]) {
      if (r.prev_calls_count !== n) setPlace.run(n, seq, r.call_log_id)
      n++
    }
    // n is now the caller's total; a caller whose calls all moved to another number has none
    if (n > 0) setTotal.run(mobile, n)
    else forget.run(mobile)
  }
}
