// Calls: totals and pages for call history and the call log.
// Totals come from running totals (call_days per store, call_minutes for all
// visible stores, a server's copy of it in memory: minuteTotals.ts), never from
// counting calls. A page starts by finding the
// bucket (day or minute) where its first row lies, then skips only the rows of
// that bucket before it, so page N costs about what page 1 costs. The page is
// one range read: of `calls` itself (time order) across stores, of the
// covering index calls_store for one store. Rows leave in the wire shapes
// (spec 2.1, 2.6), decoded from how they are stored (callCodec.ts).
import { classSql, countOf, type CallClass, type Counts } from './callClasses'
import { int } from './bound'
import { callerTotals } from './callerTotals'
import { callTexts } from './callTexts'
import { dayNumber, dayTextOf, mobileOfCall, secondsOf, substatusOf, timeAfter, TimeTexts } from './callCodec'
import { isShownBlank, minutesOf } from './fieldRules'
import { storeFaces, storesOfDealer, visibleStore, type StoreFace, type StoreRow } from './directory'
import { minuteTotals } from './minuteTotals'
import { firstPassing } from './passing'
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
// built once: bun:sqlite finds a prepared statement by its SQL text, and a string built per call is hashed per call
const STORE_UP_TO = `${STORE_CUM} AND day <= CAST(? AS TEXT) ORDER BY day DESC LIMIT 1`
const STORE_BEFORE = `${STORE_CUM} AND day < CAST(? AS TEXT) ORDER BY day DESC LIMIT 1`

/** A store's calls in [from, to] by substatus, with their seconds: two seeks. */
function storeCounts(db: Store, websiteId: number, from: string, to: string): { before: Counts; range: Counts } {
  const upTo = db.$client.query<Counts, [number, string]>(STORE_UP_TO).get(websiteId, to) ?? ZERO
  const before = db.$client.query<Counts, [number, string]>(STORE_BEFORE).get(websiteId, from) ?? ZERO
  return { before, range: diff(upTo, before) }
}

const GLOBAL_CUM = `SELECT cum_answered AS answered, cum_missed AS missed, cum_offline AS offline,
  0 AS secAnswered, 0 AS secMissed, 0 AS secOffline FROM call_minutes`
const GLOBAL_UP_TO = `${GLOBAL_CUM} WHERE minute <= ${int()} ORDER BY minute DESC LIMIT 1`
const GLOBAL_BEFORE = `${GLOBAL_CUM} WHERE minute < ${int()} ORDER BY minute DESC LIMIT 1`

/** The range's first and last minute (since 1970). */
const minutesOfRange = (range: Range) => ({ first: secondsOf(range.fromTime)! / 60, last: (secondsOf(range.toTime)! - 59) / 60 })

function globalCounts(db: Store, { first, last }: { first: number; last: number }): { before: Counts; range: Counts } {
  const upTo = db.$client.query<Counts, [number]>(GLOBAL_UP_TO).get(last) ?? ZERO
  const before = db.$client.query<Counts, [number]>(GLOBAL_BEFORE).get(first) ?? ZERO
  return { before, range: diff(upTo, before) }
}

// ---- rows: what a page reads, and the two wire shapes it leaves in ----

/** A stored call as a page reads it, with its caller's lifetime total. */
interface CallRead {
  website_id: number
  call_log_id: string
  caller_number: string
  /** a date range holds only starts that are times; the change feed lists every call, and a start that is no time is its text (callCodec.ts) */
  start: number | string
  duration_seconds: number
  did_number: number // call_texts.id (callTexts.ts)
  event_type: number // call_texts.id
  substatus: number | string
  recording_url: string | null
  crm_lead_id: string | null
  crm_synced_at: number | string | null
  created_at: number | string
  mobile: number
  prev_calls_count: number
}

const CALL_COLUMNS = `c.website_id, c.call_log_id, c.caller_number, c.start, c.duration_seconds, c.did_number, c.event_type, c.substatus,
  c.recording_url, c.crm_lead_id, c.crm_synced_at, c.created_at, c.mobile, c.prev_calls_count`
// a call-log row's (spec 2.6): each column read costs a 500-row page about 25 µs
const LOG_COLUMNS = 'c.call_log_id, c.caller_number, c.start, c.duration_seconds, c.did_number, c.event_type, c.substatus, c.recording_url, c.mobile, c.prev_calls_count'
type Shape = 'record' | 'log'
const COLUMNS: Record<Shape, string> = { record: CALL_COLUMNS, log: LOG_COLUMNS }

/**
 * The lengths of the strings a record holds that were read long before its answer (its
 * store's sap_code, dealership_name and pincode; its did_number's text), summed where the
 * record is made. Under load those strings are out of the CPU's caches, and JSON.stringify
 * met their misses one after another: a month's fresh page took 53 µs to serialise, the
 * same page again 16 µs. Reading a record's strings together, where nothing waits for
 * them, lets their misses overlap; the sum (a 32-bit integer) is kept so that no compiler
 * drops the reads. Served B/A 1.20 (month), 1.13 (missed calls), 1.12 (the feed's walk;
 * docs/benchmarks.md, twenty-first session).
 */
let heldStrings = 0

const nullIfBlank = (v: string | null) => (isShownBlank(v) ? null : v)

/** Every page's times, written together (TimeTexts): a worker makes one page at a time. */
const pageTimes = new TimeTexts()

/** A call's times as its record shows them (timesOf). */
interface Times {
  start: string
  syncedAt: string | null
  createdAt: string
}

/** Adds a call's times to the page's TimeTexts: its start, its CRM sync, its created_at when not its start. */
function addTimes(c: CallRead): void {
  if (typeof c.start !== 'number') return
  pageTimes.add(c.start)
  if (typeof c.crm_synced_at === 'number') pageTimes.add(c.start + c.crm_synced_at)
  if (typeof c.created_at === 'number' && c.created_at !== 0) pageTimes.add(c.start + c.created_at)
}

/** One object for every record's times: a record copies them at once. */
const times: Times = { start: '', syncedAt: null, createdAt: '' }

/**
 * A call's times, taken from the page's TimeTexts in addTimes' order; a start that is
 * no time keeps the others as their texts too (storedAfter).
 */
function timesOf(c: CallRead): Times {
  if (typeof c.start !== 'number') {
    times.start = c.start
    times.syncedAt = timeAfter(c.crm_synced_at, c.start)
    times.createdAt = timeAfter(c.created_at, c.start)!
    return times
  }
  times.start = pageTimes.take()
  times.syncedAt = typeof c.crm_synced_at === 'number' ? pageTimes.take() : c.crm_synced_at
  times.createdAt = typeof c.created_at !== 'number' ? c.created_at : c.created_at === 0 ? times.start : pageTimes.take()
  return times
}

/**
 * A call record (spec 2.1), in the documented order: its store's fields, then the
 * call's own. `change` leads a change-feed item ('upsert', store/feed.ts) and is left
 * out of call history's records (undefined: JSON.stringify writes no such field).
 * An object a record, serialised with its whole answer by one JSON.stringify, so no
 * text is built but the answer's: against each record's own fields stringified and
 * joined with its store's as text, a month's 50-row page took 0.90 of the time in a
 * loop, and served B/A 1.06 (month), 1.02 (missed calls), 1.00 (the feed; docs/benchmarks.md).
 */
function callRecord<C extends 'upsert' | undefined>(change: C, c: CallRead, face: StoreFace, total: number, textOf: (id: number) => string, times: Times) {
  const did = textOf(c.did_number)
  // the strings held since their store or text was read, read here so their misses overlap (heldStrings)
  heldStrings = (heldStrings + face.sap_code.length + face.dealership_name.length + (face.pincode === null ? 0 : face.pincode.length) + did.length) | 0
  return {
    change,
    website_id: face.website_id,
    sap_code: face.sap_code,
    dealership_name: face.dealership_name,
    city: face.city,
    district: face.district,
    state: face.state,
    country: face.country,
    pincode: face.pincode,
    call_log_id: c.call_log_id,
    call_number_with_c_code: c.caller_number,
    mobile: mobileOfCall(c.caller_number, c.mobile),
    call_start_time: times.start,
    call_duration_minutes: minutesOf(c.duration_seconds),
    call_did_number: did,
    call_event_type: textOf(c.event_type),
    substatus: substatusOf(c.substatus),
    call_recording_url: nullIfBlank(c.recording_url),
    crm_lead_id: nullIfBlank(c.crm_lead_id),
    crm_synced_at: times.syncedAt,
    total_calls_from_caller: total,
    prev_calls_count: c.prev_calls_count,
    created_at: times.createdAt, // mostly the start itself
  }
}
export type CallRecordOut<C extends 'upsert' | undefined = undefined> = ReturnType<typeof callRecord<C>>

/** A call-log row (spec 2.6). */
function logRow(c: CallRead, total: number, textOf: (id: number) => string, start: string) {
  return {
    call_log_id: c.call_log_id,
    caller_number: c.caller_number,
    call_start_time: start,
    call_duration_minutes: minutesOf(c.duration_seconds),
    did_number: textOf(c.did_number),
    call_event_type: textOf(c.event_type),
    substatus: substatusOf(c.substatus),
    total_calls_from_caller: total,
    prev_calls_count: c.prev_calls_count,
    recording_url: isShownBlank(c.recording_url) ? '' : c.recording_url!,
  }
}
export type LogRow = ReturnType<typeof logRow>

/**
 * A page's call records (with `change` first, or without), made together so that their
 * times are written as one text (TimeTexts); its caller totals and visible stores are
 * read once a page. null for no call, and for a call whose store is not visible (the
 * change feed's delete).
 */
export function recordsOf<C extends 'upsert' | undefined>(db: Store, change: C, calls: readonly (CallRead | null)[]): (CallRecordOut<C> | null)[] {
  const totalOf = callerTotals(db)
  const faceOf = storeFaces(db)
  const textOf = callTexts(db)
  const faces = new Array<StoreFace | null>(calls.length)
  pageTimes.begin()
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]
    faces[i] = call === null ? null : faceOf(call.website_id)
    if (faces[i] !== null) addTimes(call!)
  }
  pageTimes.cut()
  const out = new Array<CallRecordOut<C> | null>(calls.length)
  for (let i = 0; i < calls.length; i++) {
    const face = faces[i]
    const call = calls[i]
    out[i] = face === null ? null : callRecord(change, call!, face, totalOf(call!.mobile), textOf, timesOf(call!))
  }
  return out
}

/** A page of call history's records: every row is of a visible store (the query's scope, or calls.visible). */
export function callRecords(db: Store, rows: readonly CallRead[]): CallRecordOut[] {
  const records = recordsOf(db, undefined, rows)
  for (let i = 0; i < records.length; i++) {
    // never meant to happen; were it to, a 500 rather than an answer with a hole in its list
    if (records[i] === null) throw new Error(`call ${rows[i].call_log_id} of store ${rows[i].website_id}, not visible, on a page of call history`)
  }
  return records as CallRecordOut[]
}

function logRows(db: Store, rows: CallRead[]): LogRow[] {
  const totalOf = callerTotals(db)
  const textOf = callTexts(db)
  // a row shows its start only (a call log's columns hold no other time)
  pageTimes.begin()
  for (let i = 0; i < rows.length; i++) if (typeof rows[i].start === 'number') pageTimes.add(rows[i].start as number)
  pageTimes.cut()
  const out = new Array<LogRow>(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const start = rows[i].start
    out[i] = logRow(rows[i], totalOf(rows[i].mobile), textOf, typeof start === 'number' ? pageTimes.take() : start)
  }
  return out
}

/** Which stores a request covers: one store, several (a dealer's), or every visible store. */
export type Scope = { kind: 'store'; websiteId: number } | { kind: 'stores'; websiteIds: number[] } | { kind: 'all' }

interface CallSet {
  total: number
  counts: Counts
  /** a page of call-log rows */
  logPage(offset: number, limit: number): LogRow[]
  /** a page of call records, as stored (callRecords makes them records) */
  recordPage(offset: number, limit: number): CallRead[]
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

type PageAt = (target: number, offset: number, limit: number, shape: Shape) => CallRead[]

/**
 * A call set from its counts before and within the range: the total at once, a
 * page on demand from its place in the running totals (`target`: the rows of
 * the class before the page's first, counted from the beginning of time).
 */
function setFrom(db: Store, counts: { before: Counts; range: Counts }, cls: CallClass, pageAt: PageAt): CallSet {
  const total = countOf(counts.range, cls)
  const before = countOf(counts.before, cls)
  const rows = (offset: number, limit: number, shape: Shape) => (offset >= total ? [] : pageAt(before + offset, offset, limit, shape))
  return {
    total,
    counts: counts.range,
    logPage: (offset, limit) => logRows(db, rows(offset, limit, 'log')),
    recordPage: (offset, limit) => rows(offset, limit, 'record'),
  }
}

/** A page's SQL (or SQL texts) for each shape's columns. */
const bothShapes = <T = string>(sql: (columns: string) => T): Record<Shape, T> => ({ record: sql(COLUMNS.record), log: sql(COLUMNS.log) })

/** The SQL of each class, built once per class (statements are found by their text). */
function perClass<T>(build: (cls: CallClass) => T): (cls: CallClass) => T {
  const built = new Map<CallClass, T>()
  return (cls) => {
    let sql = built.get(cls)
    if (sql === undefined) built.set(cls, (sql = build(cls)))
    return sql
  }
}

const storeSql = perClass((cls) => {
  const { cum, n, where } = classSql(cls)
  return {
    // the first day whose running total passes the target; only that day's earlier rows are skipped
    start: `SELECT day, ${cum} - (${n}) AS skipped FROM call_days
      WHERE website_id = ${int()} AND day >= CAST(? AS TEXT) AND ${cum} > ? ORDER BY day LIMIT 1`,
    page: bothShapes((columns) => `SELECT ${columns} FROM calls c INDEXED BY calls_store
      WHERE c.website_id = ${int()} AND c.start >= ${int()} AND c.start <= ${int()} ${where}
      ORDER BY c.start, c.call_log_id LIMIT ${int()} OFFSET ${int()}`),
  }
})

function storeSet(db: Store, websiteId: number, range: Range, cls: CallClass): CallSet {
  const sql = storeSql(cls)
  return setFrom(db, storeCounts(db, websiteId, range.from, range.to), cls, (target, _offset, limit, shape) => {
    const start = db.$client.query<{ day: string; skipped: number }, [number, string, number]>(sql.start).get(websiteId, range.from, target)
    if (!start) return []
    return db.$client
      .query<CallRead, [number, number, number, number, number]>(sql.page[shape])
      .all(websiteId, secondsOf(`${start.day} 00:00:00`)!, secondsOf(range.toTime)!, limit, target - start.skipped)
  })
}

/**
 * Most stores whose rows a page merges: each store's calls are one range of calls_store
 * in (start, call_log_id) order already, and SQLite merges the arms of a compound SELECT
 * with that ORDER BY (MERGE (UNION ALL), no sort), reading only the rows the page needs.
 * A dealer's page of two stores took 330 µs against 170 for one store with json_each and a
 * sort of the days' rows. Beyond this many arms, one statement a count is too many texts.
 */
const MERGED_STORES = 8

const storesSql = perClass((cls) => {
  const { cum, where } = classSql(cls)
  /** The merged page for n stores: ?1..?n the stores, then from, to, limit and offset. */
  const merged = (columns: string, n: number) =>
    `${Array.from({ length: n }, (_, i) => `SELECT ${columns} FROM calls c INDEXED BY calls_store
      WHERE c.website_id = ${int(i + 1)} AND c.start >= ${int(n + 1)} AND c.start <= ${int(n + 2)} ${where}`).join(' UNION ALL ')}
      ORDER BY start, call_log_id LIMIT ${int(n + 3)} OFFSET ${int(n + 4)}`
  return {
    // a store's calls of the class up to and including a day: one seek
    through: `SELECT ${cum} AS n FROM call_days WHERE website_id = ${int()} AND day <= CAST(? AS TEXT) ORDER BY day DESC LIMIT 1`,
    // the first day of the range whose running total passes a count: one seek, then the store's days up to it
    passing: `SELECT day FROM call_days
      WHERE website_id = ${int()} AND day >= CAST(? AS TEXT) AND day <= CAST(? AS TEXT) AND ${cum} > ? ORDER BY day LIMIT 1`,
    // by the number of stores, 2 to MERGED_STORES (a single store is storeSet's)
    mergedPage: bothShapes((columns) => Array.from({ length: MERGED_STORES + 1 }, (_, n) => (n < 2 ? '' : merged(columns, n)))),
    // more stores than MERGED_STORES: every row of the days between is read and sorted
    page: bothShapes((columns) => `SELECT ${columns} FROM calls c INDEXED BY calls_store
      WHERE c.website_id IN (SELECT value FROM json_each(?)) AND c.start >= ${int()} AND c.start <= ${int()} ${where}
      ORDER BY c.start, c.call_log_id LIMIT ${int()} OFFSET ${int()}`),
  }
})

// Several stores (a dealer with more than one showroom): the day where a later page
// begins is found by a binary search over the range's days, each probe a seek per
// store into its running totals, so the rows read and merged are about one page's
// whatever the range and the page. The search starts bracketed: the stores' calls
// together pass n no later than the first day on which any one store alone passes
// n, and no earlier than the first day on which any one store passes n divided by
// the number of stores (one of them holds at least that share). Page 1 starts at
// the range's start with no probe, and a later page takes a few: a dealer's year
// took 18 probes of every store before. Up to MERGED_STORES stores the merge reads
// only the page's rows, so where the page ends needs no search (a two-store
// dealer's page 1: 47–50 µs against 65–69 with it); beyond, the page's last day,
// found the same way, bounds the rows read and sorted.
function storesSet(db: Store, websiteIds: number[], range: Range, cls: CallClass): CallSet {
  const counts = { ...ZERO }
  const before: number[] = []
  for (const id of websiteIds) {
    const c = storeCounts(db, id, range.from, range.to)
    for (const k of Object.keys(counts) as (keyof Counts)[]) counts[k] += c.range[k]
    before.push(countOf(c.before, cls))
  }
  const sql = storesSql(cls)
  return setFrom(db, { before: ZERO, range: counts }, cls, (_target, offset, limit, shape) => {
    const through = db.$client.query<{ n: number }, [number, string]>(sql.through)
    const passing = db.$client.query<{ day: string }, [number, string, string, number]>(sql.passing)
    const days = { from: dayNumber(range.from), to: dayNumber(range.to) }
    // the stores' calls of the class in the range up to and including a day (days since 1970)
    const countThrough = (day: number) => {
      const text = dayTextOf(day)
      let n = 0
      for (let i = 0; i < websiteIds.length; i++) n += (through.get(websiteIds[i], text)?.n ?? 0) - before[i]
      return n
    }
    // the first day on which any one store's calls in the range pass n (the range's last day when none does)
    const firstAlone = (n: number) => {
      let first = days.to
      for (let i = 0; i < websiteIds.length; i++) {
        const row = passing.get(websiteIds[i], range.from, range.to, before[i] + n)
        if (row) first = Math.min(first, dayNumber(row.day))
      }
      return first
    }
    // the first day from `from` on whose count passes n (the range's last day when none does)
    const firstDayPassing = (n: number, from: number) => {
      let hi = firstAlone(n)
      let lo = Math.min(hi, Math.max(from, firstAlone(Math.floor(n / websiteIds.length))))
      while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2)
        if (countThrough(mid) > n) hi = mid
        else lo = mid + 1
      }
      return lo
    }
    // page 1 starts at the range's start; a later page at the day where its first row lies
    const first = offset === 0 ? days.from : firstDayPassing(offset, days.from)
    const skip = offset - (first > days.from ? countThrough(first - 1) : 0)
    if (websiteIds.length <= MERGED_STORES) {
      // the merge reads only the rows the page needs: the range's end bounds it, with no search for the page's last day
      return db.$client.query<CallRead, number[]>(sql.mergedPage[shape][websiteIds.length]).all(...websiteIds, first * 86_400, secondsOf(range.toTime)!, limit, skip)
    }
    const last = firstDayPassing(offset + limit - 1, first)
    return db.$client
      .query<CallRead, [string, number, number, number, number]>(sql.page[shape])
      .all(JSON.stringify(websiteIds), first * 86_400, last * 86_400 + 86_399, limit, skip)
  })
}

const allSql = perClass((cls) => {
  const { cum, n, where } = classSql(cls)
  return {
    upTo: `SELECT minute, ${cum} AS cum, ${cum} - (${n}) AS skipped FROM call_minutes WHERE minute <= ${int()} ORDER BY minute DESC LIMIT 1`,
    // time order across stores is the table's own: one range read, keeping calls of visible stores
    page: bothShapes((columns) => `SELECT ${columns} FROM calls c
      WHERE c.start >= ${int()} AND c.start <= ${int()} AND c.visible = 1 ${where}
      ORDER BY c.start, c.call_log_id LIMIT ${int()} OFFSET ${int()}`),
  }
})

function allSet(db: Store, range: Range, cls: CallClass): CallSet {
  const sql = allSql(cls)
  const { first, last } = minutesOfRange(range)
  // the page from the minute where its first row lies, skipping that minute's rows before it
  const pageFrom = (start: { minute: number; skipped: number } | null, target: number, limit: number, shape: Shape) =>
    start === null ? [] : db.$client.query<CallRead, [number, number, number, number]>(sql.page[shape]).all(start.minute * 60, secondsOf(range.toTime)!, limit, target - start.skipped)
  const held = minuteTotals(db)
  if (held !== null) {
    const before = held.through(first - 1)
    return setFrom(db, { before, range: diff(held.through(last), before) }, cls, (target, _offset, limit, shape) =>
      pageFrom(held.passing(first, last, target, cls), target, limit, shape))
  }
  // call_minutes read while its copy is not ready (minuteTotals.ts)
  const upTo = db.$client.query<{ minute: number; cum: number; skipped: number }, [number]>(sql.upTo)
  const counts = globalCounts(db, { first, last })
  const below = countOf(counts.before, cls)
  const through = below + countOf(counts.range, cls)
  return setFrom(db, counts, cls, (target, _offset, limit, shape) => {
    // the first minute of the range whose running total passes the target, each probe one rowid seek
    const { row: start } = firstPassing(first, last, below, through, target, (minute) => {
      const row = upTo.get(minute)
      return row && { at: row.minute, total: row.cum, row }
    })
    return pageFrom(start, target, limit, shape)
  })
}

const byIdSql = perClass((cls) => `SELECT ${CALL_COLUMNS} FROM calls c INDEXED BY calls_call_log_id
  WHERE c.call_log_id = CAST(? AS TEXT) AND c.start >= ${int()} AND c.start <= ${int()} ${classSql(cls).where}`)

/** One call by call_log_id, if it is visible, in range, in scope and of the class. */
function callById(db: Store, callLogId: string, scope: Scope, range: Range, cls: CallClass): CallRead[] {
  const rows = db.$client
    .query<CallRead, [string, number, number]>(byIdSql(cls))
    .all(callLogId, secondsOf(range.fromTime)!, secondsOf(range.toTime)!)
    .filter((r) => visibleStore(db, r.website_id) !== null)
  return scope.kind === 'all' ? rows : rows.filter((r) => (scope.kind === 'store' ? [scope.websiteId] : scope.websiteIds).includes(r.website_id))
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

/** One page of call history (its calls, for callRecords) and the total it is a page of: by call_log_id when given, else from the call set. */
export function callHistoryPage(db: Store, scope: Scope, range: Range, cls: CallClass, callLogId: string | null, page: { offset: number; limit: number }): { total: number; records: CallRead[] } {
  if (scope.kind === 'stores' && scope.websiteIds.length === 0) return { total: 0, records: [] }
  if (callLogId !== null) {
    const records = callById(db, callLogId, scope, range, cls)
    return { total: records.length, records: records.slice(page.offset, page.offset + page.limit) }
  }
  const set = callSet(db, scope, range, cls)
  return { total: set.total, records: set.recordPage(page.offset, page.limit) }
}

/** What a page reads of a call, for the change feed's rows (store/feed.ts). */
export const CALL_READ_COLUMNS = CALL_COLUMNS
export type { CallRead }
