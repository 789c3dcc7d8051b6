// Calls: totals and pages for call history and the call log.
// Totals come from running totals (call_days per store, call_minutes for all
// visible stores), never from counting calls. A page starts by finding the
// bucket (day or minute) where its first row lies, then skips only the rows of
// that bucket before it, so page N costs about what page 1 costs.
import { classSql, countOf, type CallClass, type Counts } from './callClasses'
import { int, text } from './bound'
import { isBlank, minutesSql } from './fieldRules'
import { storesOfDealer, type StoreRow } from './directory'
import type { Store } from './open'

const ZERO: Counts = { answered: 0, missed: 0, offline: 0, secAnswered: 0, secMissed: 0, secOffline: 0 }

const diff = (a: Counts, b: Counts): Counts => ({
  answered: a.answered - b.answered,
  missed: a.missed - b.missed,
  offline: a.offline - b.offline,
  secAnswered: a.secAnswered - b.secAnswered,
  secMissed: a.secMissed - b.secMissed,
  secOffline: a.secOffline - b.secOffline,
})

const STORE_CUM = `SELECT cum_answered AS answered, cum_missed AS missed, cum_offline AS offline,
  cum_sec_answered AS secAnswered, cum_sec_missed AS secMissed, cum_sec_offline AS secOffline
  FROM call_days WHERE website_id = ${int()}`

/** A store's calls in [from, to] by substatus, with their seconds: two seeks. */
function storeCounts(db: Store, websiteId: number, from: string, to: string): { before: Counts; range: Counts } {
  const q = (op: string) =>
    db.$client.query<Counts, [number, string]>(`${STORE_CUM} AND day ${op} ${text()} ORDER BY day DESC LIMIT 1`)
  const upTo = q('<=').get(websiteId, to) ?? ZERO
  const before = q('<').get(websiteId, from) ?? ZERO
  return { before, range: diff(upTo, before) }
}

const GLOBAL_CUM = `SELECT cum_answered AS answered, cum_missed AS missed, cum_offline AS offline,
  0 AS secAnswered, 0 AS secMissed, 0 AS secOffline FROM call_minutes`

function globalCounts(db: Store, from: string, to: string): { before: Counts; range: Counts } {
  const q = (op: string) => db.$client.query<Counts, [string]>(`${GLOBAL_CUM} WHERE minute ${op} ${text()} ORDER BY minute DESC LIMIT 1`)
  const upTo = q('<=').get(`${to} 23:59`) ?? ZERO
  const before = q('<').get(`${from} 00:00`) ?? ZERO
  return { before, range: diff(upTo, before) }
}

// A caller's lifetime calls (store/derive/callers.ts): one seek into a small table.
const CALLER_TOTAL = '(SELECT m.total FROM callers m WHERE m.mobile = c.mobile)'

// The two wire shapes a call row leaves in: call history (spec 2.1, also the change
// feed's upserts) and call log (2.6).
const MINUTES = minutesSql('c.duration_seconds')
export const HISTORY_COLUMNS = `c.website_id, s.sap_code, s.dealership_name, s.city, s.district, s.state, s.country, s.pincode,
  c.call_log_id, c.caller_number AS call_number_with_c_code, c.mobile, c.call_start_time,
  ${MINUTES} AS call_duration_minutes, c.did_number AS call_did_number, c.event_type AS call_event_type, c.substatus,
  iif(${isBlank('c.recording_url')}, NULL, c.recording_url) AS call_recording_url,
  iif(${isBlank('c.crm_lead_id')}, NULL, c.crm_lead_id) AS crm_lead_id,
  c.crm_synced_at, ${CALLER_TOTAL} AS total_calls_from_caller, c.prev_calls_count, c.created_at`
const LOG = `c.call_log_id, c.caller_number, c.call_start_time, ${MINUTES} AS call_duration_minutes,
  c.did_number, c.event_type AS call_event_type, c.substatus, ${CALLER_TOTAL} AS total_calls_from_caller,
  c.prev_calls_count, iif(${isBlank('c.recording_url')}, '', c.recording_url) AS recording_url`

type Shape = 'history' | 'log'
const COLUMNS: Record<Shape, string> = { history: HISTORY_COLUMNS, log: LOG }
const JOINS = 'JOIN stores s ON s.website_id = c.website_id'

/** Which stores a request covers: one store, several (a dealer's), or every visible store. */
export type Scope = { kind: 'store'; websiteId: number } | { kind: 'stores'; websiteIds: number[] } | { kind: 'all' }

interface CallSet {
  total: number
  counts: Counts
  page(offset: number, limit: number, shape: Shape): Record<string, unknown>[]
}

export interface Range {
  from: string
  to: string
  fromTime: string
  toTime: string
}

/** The calls of a scope in a date range, filtered by class: total now, pages on demand. */
export function callSet(db: Store, scope: Scope, range: Range, cls: CallClass): CallSet {
  if (scope.kind === 'store') return storeSet(db, scope.websiteId, range, cls)
  if (scope.kind === 'stores') {
    if (scope.websiteIds.length === 1) return storeSet(db, scope.websiteIds[0], range, cls)
    return storesSet(db, scope.websiteIds, range, cls)
  }
  return allSet(db, range, cls)
}

type PageAt = (target: number, offset: number, limit: number, shape: Shape) => Record<string, unknown>[]

/**
 * A call set from its counts before and within the range: the total at once, a
 * page on demand from its place in the running totals (`target`: the rows of
 * the class before the page's first, counted from the beginning of time).
 */
function setFrom(counts: { before: Counts; range: Counts }, cls: CallClass, pageAt: PageAt): CallSet {
  const total = countOf(counts.range, cls)
  const before = countOf(counts.before, cls)
  return { total, counts: counts.range, page: (offset, limit, shape) => (offset >= total ? [] : pageAt(before + offset, offset, limit, shape)) }
}

function storeSet(db: Store, websiteId: number, range: Range, cls: CallClass): CallSet {
  const { cum, n, where } = classSql(cls)
  return setFrom(storeCounts(db, websiteId, range.from, range.to), cls, (target, _offset, limit, shape) => {
    // the first day whose running total passes the target; only that day's earlier rows are skipped
    const start = db.$client
      .query<{ day: string; skipped: number }, [number, string, number]>(
        `SELECT day, ${cum} - (${n}) AS skipped FROM call_days
         WHERE website_id = ${int()} AND day >= ${text()} AND ${cum} > ? ORDER BY day LIMIT 1`,
      )
      .get(websiteId, range.from, target)
    if (!start) return []
    return db.$client
      .query<Record<string, unknown>, [number, string, string, number, number]>(
        `SELECT ${COLUMNS[shape]} FROM calls c ${JOINS}
         WHERE c.website_id = ${int()} AND c.call_start_time >= ${text()} AND c.call_start_time <= ${text()} ${where}
         ORDER BY c.call_start_time, c.call_log_id LIMIT ? OFFSET ?`,
      )
      .all(websiteId, `${start.day} 00:00:00`, range.toTime, limit, target - start.skipped)
  })
}

// Several stores (a dealer with more than one showroom): per-day counts of the
// stores bound the rows to read to the days the page spans, so the merge sort
// is over about one page, not the whole range.
function storesSet(db: Store, websiteIds: number[], range: Range, cls: CallClass): CallSet {
  const counts = { ...ZERO }
  for (const id of websiteIds) {
    const c = storeCounts(db, id, range.from, range.to).range
    for (const k of Object.keys(counts) as (keyof Counts)[]) counts[k] += c[k]
  }
  const ids = JSON.stringify(websiteIds)
  const { n, where } = classSql(cls)
  return setFrom({ before: ZERO, range: counts }, cls, (_target, offset, limit, shape) => {
    const days = db.$client
      .query<{ day: string; n: number }, [string, string, string]>(
        `SELECT day, sum(${n}) AS n FROM call_days
         WHERE website_id IN (SELECT value FROM json_each(?)) AND day >= ${text()} AND day <= ${text()}
         GROUP BY day ORDER BY day`,
      )
      .all(ids, range.from, range.to)
    let seen = 0
    let first: { day: string; skip: number } | undefined
    let last = range.to
    for (const d of days) {
      if (!first && seen + d.n > offset) first = { day: d.day, skip: offset - seen }
      seen += d.n
      if (first && seen >= offset + limit) {
        last = d.day
        break
      }
    }
    if (!first) return []
    return db.$client
      .query<Record<string, unknown>, [string, string, string, number, number]>(
        `SELECT ${COLUMNS[shape]} FROM calls c ${JOINS}
         WHERE c.website_id IN (SELECT value FROM json_each(?)) AND c.call_start_time >= ${text()} AND c.call_start_time <= ${text()} ${where}
         ORDER BY c.call_start_time, c.call_log_id LIMIT ? OFFSET ?`,
      )
      .all(ids, `${first.day} 00:00:00`, `${last} 23:59:59`, limit, first.skip)
  })
}

function allSet(db: Store, range: Range, cls: CallClass): CallSet {
  const { cum, n, where } = classSql(cls)
  const upTo = db.$client.query<{ minute: string; cum: number; skipped: number }, [string]>(
    `SELECT minute, ${cum} AS cum, ${cum} - (${n}) AS skipped FROM call_minutes WHERE minute <= ${text()} ORDER BY minute DESC LIMIT 1`,
  )
  return setFrom(globalCounts(db, range.from, range.to), cls, (target, _offset, limit, shape) => {
    // the first minute whose running total passes the target: a binary search
    // over the minutes of the range, each probe one primary-key seek
    let lo = minuteNumber(`${range.from} 00:00`)
    let hi = minuteNumber(`${range.to} 23:59`)
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2)
      if ((upTo.get(minuteText(mid))?.cum ?? 0) > target) hi = mid
      else lo = mid + 1
    }
    const start = upTo.get(minuteText(lo))
    if (!start) return []
    // time order across stores comes from calls_time; the join keeps visible stores only
    return db.$client
      .query<Record<string, unknown>, [string, string, number, number]>(
        `SELECT ${COLUMNS[shape]} FROM calls c INDEXED BY calls_time
         CROSS JOIN stores s ON s.website_id = c.website_id AND s.visible = 1
         WHERE c.call_start_time >= ${text()} AND c.call_start_time <= ${text()} ${where}
         ORDER BY c.call_start_time, c.call_log_id LIMIT ? OFFSET ?`,
      )
      .all(`${start.minute}:00`, range.toTime, limit, target - start.skipped)
  })
}

// 'YYYY-MM-DD HH:MM' ⇄ minutes since 1970, by UTC arithmetic on the text (no time zone involved)
const minuteNumber = (text: string) => Date.UTC(+text.slice(0, 4), +text.slice(5, 7) - 1, +text.slice(8, 10), +text.slice(11, 13), +text.slice(14, 16)) / 60_000
const minuteText = (n: number) => new Date(n * 60_000).toISOString().slice(0, 16).replace('T', ' ')

/** One call by call_log_id, if it is visible, in range, in scope and of the class. */
function callById(db: Store, callLogId: string, scope: Scope, range: Range, cls: CallClass): Record<string, unknown>[] {
  const rows = db.$client
    .query<Record<string, unknown> & { website_id: number }, [string, string, string]>(
      `SELECT ${HISTORY_COLUMNS} FROM calls c ${JOINS}
       WHERE c.call_log_id = ${text()} AND s.visible = 1 AND c.call_start_time >= ${text()} AND c.call_start_time <= ${text()} ${classSql(cls).where}`,
    )
    .all(callLogId, range.fromTime, range.toTime)
  if (scope.kind === 'all') return rows
  const ids = scope.kind === 'store' ? [scope.websiteId] : scope.websiteIds
  return rows.filter((r) => ids.includes(r.website_id))
}

/**
 * Which stores call history covers (decision 13): the storelookup's store, the
 * dealer's stores, every visible store, or none when the storelookup's store is
 * not the dealer's (sap_code and storelookup together both apply).
 */
export function scopeOf(db: Store, store: StoreRow | null, sapCode: string | null): Scope {
  if (store !== null) return sapCode !== null && store.sap_code !== sapCode ? { kind: 'stores', websiteIds: [] } : { kind: 'store', websiteId: store.website_id }
  if (sapCode !== null) return { kind: 'stores', websiteIds: storesOfDealer(db, sapCode).map((s) => s.website_id) }
  return { kind: 'all' }
}

/** One page of call history and the total it is a page of: by call_log_id when given, else from the call set. */
export function callHistoryPage(db: Store, scope: Scope, range: Range, cls: CallClass, callLogId: string | null, page: { offset: number; limit: number }) {
  if (scope.kind === 'stores' && scope.websiteIds.length === 0) return { total: 0, data: [] }
  if (callLogId !== null) {
    const rows = callById(db, callLogId, scope, range, cls)
    return { total: rows.length, data: rows.slice(page.offset, page.offset + page.limit) }
  }
  const set = callSet(db, scope, range, cls)
  return { total: set.total, data: set.page(page.offset, page.limit, 'history') }
}
