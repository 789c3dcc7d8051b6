// The change feed (changes.md): every call's feed position is the sync run
// that last changed its record or its visibility, then its call_log_id. A run's
// seq is the master's clock at its snapshot, in seconds, bumped past the last
// run's, so positions never go back and replicas of one master number their
// runs alike. The write side marks positions as a run changes calls (new,
// edited, renumbered, moved, removed) and when a store's face in call records
// changes; the read side lists positions after a cursor, one index range.
import type { Database } from 'bun:sqlite'
import { CALL_READ_COLUMNS, recordsOf, type CallRead, type CallRecordOut } from './calls'
import type { StoreFaces } from './derive/stores'
import { int } from './bound'
import type { Store } from './open'
export { feedState, type FeedState } from './feedState'

/** 'YYYY-MM-DD HH:MM:SS' on the master's clock → whole seconds, read as UTC (no time zone involved). */
const secondsOf = (masterNow: string) => Math.floor(Date.parse(`${masterNow.replace(' ', 'T')}Z`) / 1000)

/** Opens this run's position in the feed; rolled back with the run if it fails. */
export function openFeedSeq(client: Database, masterNow: string): number {
  const last = client.query<{ seq: number | null }, []>('SELECT max(seq) AS seq FROM feed_syncs').get()?.seq ?? 0
  const seq = Math.max(secondsOf(masterNow), last + 1)
  client.query('INSERT INTO feed_syncs (seq, master_now) VALUES (?, ?)').run(seq, masterNow)
  return seq
}

/**
 * Calls of a store whose face changed (renamed, moved city, turned visible or
 * invisible, its dealer renamed or deactivated) take this run's position: one
 * range of the calls table per store. A store that stays invisible moves nothing.
 */
export function moveCallsOfChangedStores(client: Database, before: StoreFaces, after: StoreFaces, seq: number): number {
  const move = client.query('UPDATE calls SET feed_seq = ?1 WHERE website_id = ?2 AND feed_seq <> ?1')
  let moved = 0
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    if ((before.get(id) ?? '') !== (after.get(id) ?? '')) moved += move.run(seq, id).changes
  }
  return moved
}

/** A call the master no longer has: its delete keeps this run's position. */
export function markGone(client: Database, callLogId: string, seq: number): void {
  client.query('INSERT INTO feed_deleted (call_log_id, feed_seq) VALUES (?1, ?2) ON CONFLICT (call_log_id) DO UPDATE SET feed_seq = ?2').run(callLogId, seq)
}

/** A call back in the master after it was gone: its position is in calls again. */
export function unmarkGone(client: Database, callLogId: string): void {
  client.query('DELETE FROM feed_deleted WHERE call_log_id = ?').run(callLogId)
}

// ---- the read side ----

/** The run before `seq` in this store (0 when none): changes at `seq` reached the master after it. */
export function runBefore(db: Store, seq: number): number {
  return db.$client.query<{ seq: number | null }, [number]>(`SELECT max(seq) AS seq FROM feed_syncs WHERE seq < ${int()}`).get(seq)?.seq ?? 0
}

/** Where a listing starts: strictly after a position, or at the first position of a run. */
export type FeedStart = { after: { seq: number; callLogId: string } } | { fromSeq: number }

/**
 * A feed item at its position: a call as stored (an upsert when its store is visible,
 * made an item by feedItems), or a call gone from the master (`call` null, a delete).
 */
export interface FeedRow {
  feed_seq: number
  call_log_id: string
  call: CallRead | null
}

/**
 * A page's feed items: a visible call as call history shows it (an upsert), a call
 * no longer visible or gone as a delete. A call of no store, an unknown one or an
 * invisible one is a delete: visibility is the directory's, in the page's snapshot
 * (read once a page, by recordsOf).
 */
export function feedItems(db: Store, rows: readonly FeedRow[]): (CallRecordOut<'upsert'> | { change: 'delete'; call_log_id: string })[] {
  const records = recordsOf(db, 'upsert', rows.map((row) => row.call))
  return rows.map((row, i) => records[i] ?? { change: 'delete', call_log_id: row.call_log_id })
}

const FROM_CALLS = `SELECT c.feed_seq, ${CALL_READ_COLUMNS} FROM calls c INDEXED BY calls_feed`
const FROM_GONE = 'SELECT g.feed_seq, g.call_log_id FROM feed_deleted g INDEXED BY feed_deleted_position'

// the row value's parameters stay bare: inside CAST, SQLite seeks on feed_seq alone and
// filters call_log_id, reading every earlier row of a run (a full load is one run)
const AFTER = (t: string) => `WHERE (${t}.feed_seq, ${t}.call_log_id) > (?, ?) ORDER BY ${t}.feed_seq, ${t}.call_log_id LIMIT ${int()}`
const FROM_SEQ = (t: string) => `WHERE ${t}.feed_seq >= ${int()} ORDER BY ${t}.feed_seq, ${t}.call_log_id LIMIT ${int()}`
const SQL = {
  calls: { after: `${FROM_CALLS} ${AFTER('c')}`, fromSeq: `${FROM_CALLS} ${FROM_SEQ('c')}` },
  gone: { after: `${FROM_GONE} ${AFTER('g')}`, fromSeq: `${FROM_GONE} ${FROM_SEQ('g')}` },
}

/** Up to `limit` feed rows from `start`, in position order: one range of each position index. */
export function feedRows(db: Store, start: FeedStart, limit: number): FeedRow[] {
  const how = 'after' in start ? 'after' : 'fromSeq'
  const params = 'after' in start ? [start.after.seq, start.after.callLogId, limit] : [start.fromSeq, limit]
  const calls = db.$client.query<CallRead & { feed_seq: number }, (string | number)[]>(SQL.calls[how]).all(...params)
  const rows: FeedRow[] = calls.map((c) => ({ feed_seq: c.feed_seq, call_log_id: c.call_log_id, call: c }))
  const gone = db.$client.query<{ feed_seq: number; call_log_id: string }, (string | number)[]>(SQL.gone[how]).all(...params)
  if (gone.length === 0) return rows // the usual case: no call ever left the master
  const byPosition = (a: FeedRow, b: FeedRow) => a.feed_seq - b.feed_seq || (a.call_log_id < b.call_log_id ? -1 : a.call_log_id > b.call_log_id ? 1 : 0)
  return [...rows, ...gone.map((g) => ({ ...g, call: null }))].sort(byPosition).slice(0, limit)
}
