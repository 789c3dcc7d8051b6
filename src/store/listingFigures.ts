// Listing figures per store and day. Range totals come from the running
// totals (at most two seeks a store, none for what is held); a day-wise page
// reads only its own rows.
import { int } from './bound'
import { dayNumber } from './callCodec'
import { TOTAL_SEARCH_SQL } from './fieldRules'
import type { Store } from './open'
import { perVersion } from './snapshot'

export interface MetricTotals {
  total_search: number
  website_clicks: number
  call_clicks: number
  direction_requests: number
  business_bookings: number
}

interface RangeTotals {
  days: number
  totals: MetricTotals
}

export const zeroTotals = (): MetricTotals => ({
  total_search: 0,
  website_clicks: 0,
  call_clicks: 0,
  direction_requests: 0,
  business_bookings: 0,
})

export function metricTotals(db: Store, websiteId: number, from: string, to: string): RangeTotals {
  return metricTotalsOf(db, [websiteId], from, to)[0]
}

// A listing row's key: the store and the day in one integer, so that a store's
// rows are one range of the table in date order and a seek is a rowid's, SQLite's
// fastest (0.5 µs against 0.8 for a (website_id, metric_date) key). 2^23 days a
// store, centred on 1970; a date that is no date (a zero date) comes first. The
// product is SQL's: store ids up to 2^32 make keys past what a JavaScript number
// holds exactly. A request passes the day as a number (dayIndex): SQLite's date
// parsing in a statement cost 0.45 µs a seek.
const DAYS_A_STORE = 8_388_608 // 2^23
/** SQL: the key of a store (SQL integer) and a day (SQL 'YYYY-MM-DD'), as sync writes it. */
export const metricKey = (websiteId: string, day: string) =>
  `(${websiteId} * ${DAYS_A_STORE} + coalesce(unixepoch(${day}) / 86400, -${DAYS_A_STORE / 2}) + ${DAYS_A_STORE / 2})`
/** SQL: the first key of a store. */
export const firstKey = (websiteId: string) => `(${websiteId}) * ${DAYS_A_STORE}`
/** A day ('YYYY-MM-DD', a real one) as its place within a store's keys. */
const dayIndex = (day: string) => dayNumber(day) + DAYS_A_STORE / 2
/** SQL: the key of a store and a day's index, both bound numbers. */
const keyOf = (websiteId: string, index: string) => `(${websiteId} * ${DAYS_A_STORE} + ${index})`
/** SQL: a key's day index, the first column of metrics_day (SQLite matches an index's expression by its text: db/migrations/0008). */
export const DAY_OF_KEY = `(k % ${DAYS_A_STORE})`

// A store's running totals through a day: its last row on or before that day.
// Typed parameters keep the statements prepared (store/bound.ts).
const CUMS = `seq, cum_search, cum_website_clicks, cum_call_clicks, cum_direction_requests, cum_business_bookings`
type Cums = { seq: number; cum_search: number; cum_website_clicks: number; cum_call_clicks: number; cum_direction_requests: number; cum_business_bookings: number }
const STORE = int(1)
const DAY = int(2)
// built once: bun:sqlite finds a prepared statement by its SQL text, and a string built per call is hashed per call
const UP_TO = `SELECT ${CUMS} FROM metrics WHERE k <= ${keyOf(STORE, DAY)} AND k >= ${firstKey(STORE)} ORDER BY k DESC LIMIT 1`
const NONE: Cums = { seq: 0, cum_search: 0, cum_website_clicks: 0, cum_call_clicks: 0, cum_direction_requests: 0, cum_business_bookings: 0 }
// A store's row of one day, from metrics_day, where the rows of one day lie together: when the
// store has figures on that day, that row is the one UP_TO would find, and the lookups of a
// range's many stores read the same few pages instead of a page each (at scale 1, 1 µs a seek
// against 6). A store with no row that day takes the seek in key order after it. (Compared with
// a bare CAST, SQLite's planner does not match the index's expression and scans it whole; with
// the unary plus it seeks.)
const ON_DAY = `SELECT ${CUMS} FROM metrics INDEXED BY metrics_day WHERE ${DAY_OF_KEY} = +${DAY} AND website_id = ${STORE}`

// A store's latest row: its running totals through its last day with figures,
// read once per data version and store. Most ranges end on or after it (up to
// today), and then the range's end costs no seek.
type Latest = Cums & { day: number }
const LATEST = `SELECT k - ${firstKey(STORE)} AS day, ${CUMS} FROM metrics WHERE k < ${firstKey(`${STORE} + 1`)} AND k >= ${firstKey(STORE)} ORDER BY k DESC LIMIT 1`
const NO_ROWS: Latest = { ...NONE, day: -1 }
/** Bounded by the stores the directory lists; a new data version starts afresh. */
const latestRows = perVersion((_: Store) => new Map<number, Latest>())

// A store's running totals through the day before a range (and through a range's end
// before its latest day), held per data version by day and store: partners ask the same
// few ranges (a week, a month, a year up to today) of the same stores, and a held look-up
// costs a map's, where the seek cost 1-2 µs a store in process and, served, 24% of an
// employee lookup's time (docs/benchmarks.md, seventeenth session). Exact: the rows of a
// data version do not change, and the next version starts afresh.
type Held = { count: number; byDay: Map<number, Map<number, Cums>> }
const cumsHeld = perVersion((_: Store): Held => ({ count: 0, byDay: new Map() }))
/** Bounded: about 150 bytes an entry (15 MB full, measured); cleared when full (a week's and a year's starts of 10,000 stores fit five times). */
const CUMS_HELD_LIMIT = 100_000

/** A store's running totals through a day (a day index): held, or sought with `seek` and held. */
function cumsThrough(held: Held, id: number, day: number, seek: (id: number, day: number) => Cums): Cums {
  let ofDay = held.byDay.get(day)
  let c = ofDay?.get(id)
  if (c !== undefined) return c
  c = seek(id, day)
  if (held.count >= CUMS_HELD_LIMIT) {
    held.byDay.clear()
    held.count = 0
    ofDay = undefined
  }
  if (ofDay === undefined) held.byDay.set(day, (ofDay = new Map()))
  ofDay.set(id, c)
  held.count++
  return c
}

/** Range totals of several stores, in the order given. */
export function metricTotalsOf(db: Store, websiteIds: number[], from: string, to: string): RangeTotals[] {
  const latestOf = db.$client.query<Latest, [number]>(LATEST)
  // on a miss only: most calls find every start held (bun:sqlite finds each statement by its text)
  const seek = (id: number, day: number) =>
    db.$client.query<Cums, [number, number]>(ON_DAY).get(id, day) ?? db.$client.query<Cums, [number, number]>(UP_TO).get(id, day) ?? NONE // NONE: before its first row
  const latest = latestRows(db)
  const held = cumsHeld(db)
  const [first, last] = [dayIndex(from), dayIndex(to)]
  const out: RangeTotals[] = new Array(websiteIds.length)
  for (let i = 0; i < websiteIds.length; i++) {
    const id = websiteIds[i]
    let l = latest.get(id)
    if (l === undefined) latest.set(id, (l = latestOf.get(id) ?? NO_ROWS))
    const u = last >= l.day ? l : cumsThrough(held, id, last, seek)
    const b = first > l.day ? l : cumsThrough(held, id, first - 1, seek)
    out[i] = {
      days: u.seq - b.seq,
      totals: {
        total_search: u.cum_search - b.cum_search,
        website_clicks: u.cum_website_clicks - b.cum_website_clicks,
        call_clicks: u.cum_call_clicks - b.cum_call_clicks,
        direction_requests: u.cum_direction_requests - b.cum_direction_requests,
        business_bookings: u.cum_business_bookings - b.cum_business_bookings,
      },
    }
  }
  return out
}

export function addTotals(into: MetricTotals, add: MetricTotals): void {
  into.total_search += add.total_search
  into.website_clicks += add.website_clicks
  into.call_clicks += add.call_clicks
  into.direction_requests += add.direction_requests
  into.business_bookings += add.business_bookings
}

export interface DaywiseRow {
  performance_date: string
  total_search: number
  website_clicks: number
  call_clicks: number
  direction_requests: number
  business_bookings: number
  desktop_search_impressions: number
  mobile_search_impressions: number
  desktop_maps_impressions: number
  mobile_maps_impressions: number
}

// A store has at most one row a day, so the OFFSET here skips at most the
// days of the range that have figures (hundreds, not millions).
const DAYWISE = `SELECT metric_date AS performance_date,
    ${TOTAL_SEARCH_SQL} AS total_search,
    website_clicks, call_clicks, direction_requests, business_bookings,
    desktop_search_impressions, mobile_search_impressions, desktop_maps_impressions, mobile_maps_impressions
  FROM metrics WHERE k >= ${keyOf(STORE, DAY)} AND k <= ${keyOf(STORE, int(3))}
  ORDER BY k LIMIT ${int(4)} OFFSET ${int(5)}`

export function daywiseRows(db: Store, websiteId: number, from: string, to: string, limit: number, offset: number): DaywiseRow[] {
  return db.$client.query<DaywiseRow, [number, number, number, number, number]>(DAYWISE).all(websiteId, dayIndex(from), dayIndex(to), limit, offset)
}
