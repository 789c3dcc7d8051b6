// Paging equivalence on the demo data. The service never counts or scans calls
// for a page: totals and page starts come from running totals (call_days per
// store, call_minutes for all stores, metrics.seq/cum_*). Here every page is
// walked end to end and must concatenate to what plain SQL over the base tables
// gives: calls JOIN stores (visible = 1), ORDER BY call_start_time, call_log_id.
// The brute force below is written from the contract, not from src/store/calls.ts.
import { describe, expect, test } from 'bun:test'
import type { DaywiseRow } from '../src/store/listingFigures'
import { openStore, type Store } from '../src/store/open'
import { loadRows } from '../src/store/load'
import type { CallRow } from '../src/store/rows'
import { sha256Hex } from '../src/http/auth'
import { DEMO_IMAGE_BASE, DEMO_KEY, DEMO_SECRET } from '../db/fixtures/demo'
import { appOver, demoApp, minutesHalfUp, sendAsDemo as send, type ExtraCall, type TestApp } from './helpers'

// ---------------------------------------------------------------- app and requests

/** A storelookup as the demo integration (id 1) receives it. */
const token = (t: TestApp, websiteId: number) => t.deps.storelookup.seal(1, websiteId)

/** One page of any paged endpoint, with its paging block in call history's shape. */
interface Paged {
  status: number
  json: any
  paging: { total_records: number; total_pages: number; page: number; limit: number; returned: number; has_more: boolean }
  data: any[]
}
type Endpoint = (t: TestApp, body: Record<string, unknown>) => Promise<Paged>

const history: Endpoint = async (t, body) => {
  const { status, json } = await send(t, '/listing/listingtiles', body)
  return { status, json, paging: json?.paging, data: json?.data }
}
/** Call log and day-wise carry the paging fields flat, and `total` instead of total_records. */
const flat =
  (path: string): Endpoint =>
  async (t, body) => {
    const { status, json } = await send(t, path, body)
    const { total, total_pages, page, limit, returned, has_more } = json ?? {}
    return { status, json, paging: { total_records: total, total_pages, page, limit, returned, has_more }, data: json?.data }
  }
const callLog = flat('/listing/calls')
const daywise = flat('/listing/daywise')

// ---------------------------------------------------------------- brute force

/** substatus request value → stored values it selects (spec 4.1); null = no filter at all. */
const SUBSTATUS: [string | undefined, string[] | null][] = [
  [undefined, null],
  ['Answered', ['Answered']],
  ['Missed', ['Missed']],
  ['Offline', ['Offline']],
  ['connected', ['Answered']],
  ['missed', ['Missed', 'Offline']],
]

interface Range {
  name: string
  from: string
  to: string
}

interface CallFilter extends Range {
  sap?: string
  store?: number
  substatus: string[] | null
}

interface BruteCall {
  call_log_id: string
  website_id: number
  call_start_time: string
  substatus: string
  caller_number: string
  did_number: string
  duration_seconds: number
}

/** Visible calls matching the filter, in contract order, straight from the base tables. */
function bruteCalls(db: Store, f: CallFilter): BruteCall[] {
  const where = ['s.visible = 1', 'substr(c.call_start_time, 1, 10) >= ?', 'substr(c.call_start_time, 1, 10) <= ?']
  const args: (string | number)[] = [f.from, f.to]
  if (f.sap !== undefined) (where.push('s.sap_code = ?'), args.push(f.sap))
  if (f.store !== undefined) (where.push('c.website_id = ?'), args.push(f.store))
  if (f.substatus) (where.push('c.substatus IN (SELECT value FROM json_each(?))'), args.push(JSON.stringify(f.substatus)))
  return db.$client
    .query<BruteCall, (string | number)[]>(
      `SELECT c.call_log_id, c.website_id, c.call_start_time, c.substatus, c.caller_number, c.did_number, c.duration_seconds
       FROM calls_readable c JOIN stores s ON s.website_id = c.website_id
       WHERE ${where.join(' AND ')} ORDER BY c.call_start_time, c.call_log_id`,
    )
    .all(...args)
}

/** Call-log summary of a filtered range (spec 4.5, decision 22): sum the seconds first, round once. */
function bruteSummary(calls: BruteCall[]) {
  const seconds = calls.reduce((s, c) => s + c.duration_seconds, 0)
  return {
    total_calls: calls.length,
    connected_calls: calls.filter((c) => c.substatus === 'Answered').length,
    missed_calls: calls.filter((c) => c.substatus === 'Missed' || c.substatus === 'Offline').length,
    total_minutes: minutesHalfUp(seconds),
  }
}

/** A store's listing rows in the range, ascending, straight from the base columns. */
function bruteDays(db: Store, store: number, r: Range): DaywiseRow[] {
  return db.$client
    .query<DaywiseRow, [number, string, string]>(
      `SELECT metric_date AS performance_date,
         desktop_search_impressions + mobile_search_impressions + desktop_maps_impressions + mobile_maps_impressions AS total_search,
         website_clicks, call_clicks, direction_requests, business_bookings,
         desktop_search_impressions, mobile_search_impressions, desktop_maps_impressions, mobile_maps_impressions
       FROM metrics WHERE website_id = ? AND metric_date BETWEEN ? AND ? ORDER BY metric_date`,
    )
    .all(store, r.from, r.to)
}

function bruteTotals(days: DaywiseRow[]) {
  const sum = (k: keyof DaywiseRow) => days.reduce((s, d) => s + (d[k] as number), 0)
  return {
    total_search: sum('total_search'),
    website_clicks: sum('website_clicks'),
    call_clicks: sum('call_clicks'),
    direction_requests: sum('direction_requests'),
    business_bookings: sum('business_bookings'),
  }
}

// Row identities: enough columns that a row from the wrong store, time or class shows up.
const historyKey = (r: any) => `${r.call_log_id}|${r.website_id}|${r.call_start_time}|${r.substatus}`
const logKey = (r: any) => `${r.call_log_id}|${r.call_start_time}|${r.substatus}|${r.caller_number}|${r.did_number}`

// ---------------------------------------------------------------- generic paging checks

const expectedPaging = (n: number, page: number, limit: number) => {
  const pages = Math.ceil(n / limit)
  return {
    total_records: n,
    total_pages: pages,
    page,
    limit,
    returned: Math.max(0, Math.min(limit, n - (page - 1) * limit)),
    has_more: page < pages,
  }
}

/**
 * Walks pages 1, 2, … of `limit` rows until has_more is false; every page's
 * paging block must be exact, and the pages must concatenate to `expected`.
 * Returns every page's body, for whole-range fields (summary, totals).
 */
async function walk(t: TestApp, ep: Endpoint, label: string, body: Record<string, unknown>, limit: number, expected: unknown[], rowOf: (r: any) => unknown) {
  const got: unknown[] = []
  const bodies: any[] = []
  const pages = Math.ceil(expected.length / limit)
  for (let page = 1; ; page++) {
    const p = await ep(t, { ...body, page, limit })
    // the label and page ride along so a failure says which request it was
    expect({ label, page, status: p.status, paging: p.paging }).toEqual({ label, page, status: 200, paging: expectedPaging(expected.length, page, limit) })
    got.push(...p.data.map(rowOf))
    bodies.push(p.json)
    if (!p.paging.has_more || page > pages) break
  }
  expect({ label, limit, rows: got }).toEqual({ label, limit, rows: expected })
  return bodies
}

/** Pages fetched directly, without walking to them: the last one and one in the middle, with an odd limit. */
async function deepPages(t: TestApp, ep: Endpoint, label: string, body: Record<string, unknown>, expected: unknown[], rowOf: (r: any) => unknown) {
  const limit = 13
  const last = Math.ceil(expected.length / limit)
  for (const page of new Set([last, Math.ceil(last / 2)])) {
    const p = await ep(t, { ...body, page, limit })
    expect({ label, page, status: p.status, rows: p.data.map(rowOf) }).toEqual({
      label,
      page,
      status: 200,
      rows: expected.slice((page - 1) * limit, page * limit),
    })
  }
}

/**
 * Step 2 (call log, day-wise): walks each limit, fetches deep pages directly, and
 * checks that a page past the end is a 200 with empty data and has_more false
 * (decision 8). Returns every body, for the whole-range fields.
 */
async function walkStep2(t: TestApp, ep: Endpoint, label: string, body: Record<string, unknown>, expected: unknown[], rowOf: (r: any) => unknown, limits: number[]) {
  const bodies: any[] = []
  for (const limit of limits) bodies.push(...(await walk(t, ep, label, body, limit, expected, rowOf)))
  if (expected.length) await deepPages(t, ep, label, body, expected, rowOf)
  const pastPage = Math.ceil(expected.length / 7) + 1
  const past = await ep(t, { ...body, page: pastPage, limit: 7 })
  expect({ label, status: past.status, paging: past.paging, data: past.data }).toEqual({
    label,
    status: 200,
    paging: expectedPaging(expected.length, pastPage, 7),
    data: [],
  })
  bodies.push(past.json)
  return bodies
}

// ---------------------------------------------------------------- per-endpoint checks

interface Scope {
  name: string
  body: Record<string, unknown>
  sap?: string
  store?: number
}

/** Call history for one scope, range and substatus value against the brute force. */
async function checkHistory(t: TestApp, scope: Scope, range: Range, sub: string | undefined, values: string[] | null, walkLimits = [7, 500]) {
  const label = `${scope.name} / ${range.name} / substatus ${sub ?? 'none'}`
  const body = { ...scope.body, from_date: range.from, to_date: range.to, ...(sub ? { substatus: sub } : {}) }
  const expected = bruteCalls(t.db, { ...range, sap: scope.sap, store: scope.store, substatus: values }).map(historyKey)

  if (expected.length === 0) {
    // rule 3 and decision 14: nothing matches → 404 No record found, on any page
    for (const page of [1, 2]) {
      const { status, json } = await send(t, '/listing/listingtiles', { ...body, page, limit: 7 })
      expect({ label, page, status, json }).toEqual({ label, page, status: 404, json: { code: 404, status: false, message: 'No record found' } })
    }
    return 0
  }
  for (const limit of walkLimits) await walk(t, history, label, body, limit, expected, historyKey)
  await deepPages(t, history, label, body, expected, historyKey)
  // rule 5: one page past the end is 404 Page out of range
  const past = Math.ceil(expected.length / 7) + 1
  const { status, json } = await send(t, '/listing/listingtiles', { ...body, page: past, limit: 7 })
  expect({ label, past, status, json }).toEqual({ label, past, status: 404, json: { code: 404, status: false, message: 'Page out of range' } })
  return expected.length
}

/** Call log of one store against the brute force: rows, paging, and the whole-range summary on every page. */
async function checkLog(t: TestApp, store: number, range: Range, sub: string | undefined, values: string[] | null, walkLimits = [7, 500]) {
  const label = `store ${store} / ${range.name} / substatus ${sub ?? 'none'}`
  const body = { storelookup: token(t, store), from_date: range.from, to_date: range.to, ...(sub ? { substatus: sub } : {}) }
  const calls = bruteCalls(t.db, { ...range, store, substatus: values })
  const expected = calls.map(logKey)
  const summary = bruteSummary(calls)
  const message = calls.length ? '' : 'No record found'

  const bodies = await walkStep2(t, callLog, label, body, expected, logKey, walkLimits)
  // the summary covers the whole filtered range, whatever the page
  for (const b of bodies) expect({ label, summary: b.summary, message: b.message }).toEqual({ label, summary, message })
  return calls
}

/** Day-wise of one store against the metrics rows: rows, paging, and whole-range totals on every page. */
async function checkDaywise(t: TestApp, store: number, range: Range) {
  const label = `store ${store} / ${range.name}`
  const body = { storelookup: token(t, store), from_date: range.from, to_date: range.to }
  const days = bruteDays(t.db, store, range)
  const totals = bruteTotals(days)
  const message = days.length ? '' : 'No record found'

  const bodies = await walkStep2(t, daywise, label, body, days, (r) => r, [7, 366])
  for (const b of bodies) expect({ label, totals: b.totals, message: b.message }).toEqual({ label, totals, message })
  return days.length
}

// ---------------------------------------------------------------- the demo data

// Demo stores: SAP1001 → 1 and 7; SAP1002 → 2, 8; SAP1003 → 3, 9; SAP1004 → 4 (10 is deleted);
// SAP1005 → 5; SAP1006 is inactive (store 6). Calls and listing rows span 2025-01-01 … 2025-06-30.
const demo = demoApp()
const VISIBLE_STORES = [1, 2, 3, 4, 5, 7, 8, 9]
const RANGES: Range[] = [
  { name: 'one day', from: '2025-03-15', to: '2025-03-15' },
  { name: 'a week across a month end', from: '2025-01-28', to: '2025-02-03' },
  { name: 'the whole half-year', from: '2025-01-01', to: '2025-06-30' },
  { name: 'after the data', from: '2025-07-01', to: '2025-07-31' },
  { name: 'overlapping the start of the data', from: '2024-12-25', to: '2025-01-03' },
  { name: 'overlapping the end of the data', from: '2025-06-28', to: '2025-07-03' },
  { name: 'February', from: '2025-02-01', to: '2025-02-28' },
]
const SCOPES: Scope[] = [
  { name: 'all stores', body: {} },
  { name: 'sap_code SAP1001 (two stores)', body: { sap_code: 'SAP1001' }, sap: 'SAP1001' },
  { name: 'sap_code SAP1004 (one visible store)', body: { sap_code: 'SAP1004' }, sap: 'SAP1004' },
  { name: 'storelookup of store 7', body: { storelookup: token(demo, 7) }, store: 7 },
  { name: 'sap_code SAP1001 + storelookup of its store 7', body: { sap_code: 'SAP1001', storelookup: token(demo, 7) }, sap: 'SAP1001', store: 7 },
  // both filters apply (decision 13); store 1 is SAP1001's, so nothing matches
  { name: 'sap_code SAP1002 + storelookup of store 1', body: { sap_code: 'SAP1002', storelookup: token(demo, 1) }, sap: 'SAP1002', store: 1 },
]

describe('the demo data exercises what the checks rely on', () => {
  test('invisible stores have calls, so a missing visibility filter would show', () => {
    const n = demo.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM calls WHERE website_id IN (6, 10)').get()!.n
    expect(n).toBeGreaterThan(100)
  })
  test('every visible store has calls on the whole range in every substatus', () => {
    for (const store of VISIBLE_STORES)
      for (const [, values] of SUBSTATUS.slice(1)) expect(bruteCalls(demo.db, { ...RANGES[2], store, substatus: values }).length).toBeGreaterThan(7)
  })
})

describe('call history (POST /listing/listingtiles) equals the brute force', () => {
  for (const scope of SCOPES)
    for (const range of RANGES)
      test(`${scope.name}, ${range.name}`, async () => {
        let matched = 0
        for (const [sub, values] of SUBSTATUS) matched += await checkHistory(demo, scope, range, sub, values)
        // the scopes that should find calls do, so the walks above were not vacuous
        const empty = range.name === 'after the data' || scope.name.includes('SAP1002 +')
        expect(matched > 0).toBe(!empty)
      })

  test('a limit above 500 is clamped to 500 and echoed', async () => {
    const expected = bruteCalls(demo.db, { ...RANGES[2], substatus: null }).map(historyKey)
    const p = await history(demo, { from_date: RANGES[2].from, to_date: RANGES[2].to, limit: 1000 })
    expect(p.paging).toEqual(expectedPaging(expected.length, 1, 500))
    expect(p.data.map(historyKey)).toEqual(expected.slice(0, 500))
  })

  test('an inactive or unknown dealer is 404 SAP code not found even where calls exist', async () => {
    expect(bruteCalls(demo.db, { ...RANGES[2], substatus: null, store: 6 })).toEqual([]) // store 6 is invisible
    for (const sap_code of ['SAP1006', 'SAP9999']) {
      const { status, json } = await send(demo, '/listing/listingtiles', { from_date: '2025-01-01', to_date: '2025-06-30', sap_code })
      expect({ sap_code, status, json }).toEqual({ sap_code, status: 404, json: { code: 404, status: false, message: 'SAP code not found' } })
    }
  })

  test('a storelookup of an invisible store is 400 Invalid storelookup', async () => {
    for (const store of [6, 10]) {
      const { status, json } = await send(demo, '/listing/listingtiles', { from_date: '2025-01-01', to_date: '2025-06-30', storelookup: token(demo, store) })
      expect({ store, status, json }).toEqual({ store, status: 400, json: { code: 400, status: false, message: 'Invalid storelookup' } })
    }
  })
})

describe('call log (POST /listing/calls) equals the brute force, per store', () => {
  for (const store of VISIBLE_STORES)
    test(`store ${store}`, async () => {
      for (const range of RANGES) for (const [sub, values] of SUBSTATUS) await checkLog(demo, store, range, sub, values)
    })

  test('a store without calls in the range is a 200 with zero summary and No record found', async () => {
    const p = await callLog(demo, { storelookup: token(demo, 1), from_date: '2025-07-01', to_date: '2025-07-31' })
    expect(p.status).toBe(200)
    expect(p.json.message).toBe('No record found')
    expect(p.json.summary).toEqual({ total_calls: 0, connected_calls: 0, missed_calls: 0, total_minutes: 0 })
  })

  test('a storelookup of an invisible store is 400 Invalid storelookup', async () => {
    for (const store of [6, 10]) {
      const { status, json } = await send(demo, '/listing/calls', { from_date: '2025-01-01', to_date: '2025-06-30', storelookup: token(demo, store) })
      expect({ store, status, json }).toEqual({ store, status: 400, json: { code: 400, status: false, message: 'Invalid storelookup' } })
    }
  })
})

describe('day-wise (POST /listing/daywise) equals the metrics rows, per store', () => {
  // a day one store has no listing row for (the demo drops about 5% of days)
  const gap = demo.db.$client
    .query<{ day: string }, []>(
      `SELECT m.metric_date AS day FROM metrics m WHERE m.website_id = 2 AND m.metric_date > '2025-01-01'
         AND NOT EXISTS (SELECT 1 FROM metrics x WHERE x.website_id = 1 AND x.metric_date = m.metric_date) LIMIT 1`,
    )
    .get()!.day
  const ranges = [...RANGES, { name: `store 1's missing day ${gap}`, from: gap, to: gap }]

  for (const store of VISIBLE_STORES)
    test(`store ${store}`, async () => {
      let days = 0
      for (const range of ranges) days += await checkDaywise(demo, store, range)
      expect(days).toBeGreaterThan(150) // the half-year alone has that many, so the walks were not vacuous
    })

  test('a limit above 366 is clamped to 366 and echoed', async () => {
    const days = bruteDays(demo.db, 3, RANGES[2])
    const p = await daywise(demo, { storelookup: token(demo, 3), from_date: '2025-01-01', to_date: '2025-06-30', limit: 1000 })
    expect(p.paging).toEqual(expectedPaging(days.length, 1, 366))
    expect(p.data).toEqual(days)
  })

  test('a storelookup of an invisible store is 400 Invalid storelookup', async () => {
    for (const store of [6, 10]) {
      const { status, json } = await send(demo, '/listing/daywise', { from_date: '2025-01-01', to_date: '2025-06-30', storelookup: token(demo, store) })
      expect({ store, status, json }).toEqual({ store, status: 400, json: { code: 400, status: false, message: 'Invalid storelookup' } })
    }
  })
})

// ---------------------------------------------------------------- ties and day boundaries

// The demo has no two calls in the same second and no seconds on Missed/Offline
// calls, so order by call_log_id within a second, day edges and summaries of
// Missed/Offline minutes are checked on the demo plus a few added calls.
describe('same-second ties, day boundaries and Missed/Offline seconds', () => {
  const STORES = [1, 7, 2, 6, 8, 10] // 6 and 10 are invisible: their calls must drop out of pages
  const CLASSES = ['Answered', 'Missed', 'Offline']
  const extra: ExtraCall[] = []
  // 18 calls in one second, inserted with ids in descending order
  for (let i = 17; i >= 0; i--)
    extra.push({ store: STORES[i % 6], time: '2025-03-10 12:00:00', id: `TIE-${String(i).padStart(2, '0')}`, substatus: CLASSES[i % 3], seconds: 31 + i })
  // the same minute, later seconds, and both sides of midnight
  for (let i = 0; i < 6; i++) {
    extra.push({ store: STORES[i], time: `2025-03-10 12:00:${String(10 + i).padStart(2, '0')}`, id: `MIN-${i}`, substatus: CLASSES[i % 3], seconds: 17 * i })
    extra.push({ store: STORES[i], time: '2025-03-09 23:59:59', id: `EVE-${i}`, substatus: CLASSES[(i + 1) % 3], seconds: 5 + i })
    extra.push({ store: STORES[i], time: '2025-03-10 00:00:00', id: `MID-${i}`, substatus: CLASSES[(i + 2) % 3], seconds: 7 + i })
  }
  const tied = demoApp(extra)
  const ranges: Range[] = [
    { name: 'the tie day', from: '2025-03-10', to: '2025-03-10' },
    { name: 'the day before and the tie day', from: '2025-03-09', to: '2025-03-10' },
    { name: 'the day before', from: '2025-03-09', to: '2025-03-09' },
    { name: 'the whole half-year', from: '2025-01-01', to: '2025-06-30' },
  ]
  const scopes: Scope[] = [
    { name: 'all stores', body: {} },
    { name: 'sap_code SAP1001 (two stores)', body: { sap_code: 'SAP1001' }, sap: 'SAP1001' },
    { name: 'sap_code SAP1002 (two stores)', body: { sap_code: 'SAP1002' }, sap: 'SAP1002' },
    { name: 'storelookup of store 1', body: { storelookup: token(tied, 1) }, store: 1 },
  ]

  test('the added calls are there and tie as intended', () => {
    const tie = bruteCalls(tied.db, { ...ranges[0], substatus: null }).filter((c) => c.call_start_time === '2025-03-10 12:00:00')
    expect(tie.map((c) => c.call_log_id)).toEqual(
      Array.from({ length: 18 }, (_, i) => `TIE-${String(i).padStart(2, '0')}`).filter((_, i) => ![3, 5, 9, 11, 15, 17].includes(i)),
    )
  })

  for (const scope of scopes)
    test(`call history: ${scope.name}`, async () => {
      // limit 5 puts page edges inside the tied second for every class
      for (const range of ranges) for (const [sub, values] of SUBSTATUS) await checkHistory(tied, scope, range, sub, values, range.name.includes('whole') ? [500] : [5, 7])
    })

  for (const store of [1, 7, 2])
    test(`call log: store ${store}`, async () => {
      let missedSeconds = 0
      for (const range of ranges)
        for (const [sub, values] of SUBSTATUS) {
          const calls = await checkLog(tied, store, range, sub, values, range.name.includes('whole') ? [500] : [3, 7])
          missedSeconds += calls.filter((c) => c.substatus !== 'Answered').reduce((s, c) => s + c.duration_seconds, 0)
        }
      expect(missedSeconds).toBeGreaterThan(0) // Missed/Offline seconds were part of some summary
    })
})

// A dealer's page starts from a bracket: no later than the day any one of its stores alone passes
// the page's first row, no earlier than the day any one passes that row's share of the stores. Three
// stores whose traffic differs a hundredfold, with a quiet month and a day of one store only, put
// pages where a bracket one day too narrow or too wide would give a wrong row.
describe('a dealer of three stores with very different traffic', () => {
  dealerPages('three stores', 3, (add) => {
    for (let d = 0; d < 90; d++) {
      if (d >= 30 && d < 60) continue // a quiet month
      add(1, d, 20) // busy
      if (d % 3 === 0) add(2, d, 1) // quiet
    }
    add(3, 45, 40) // one day in the quiet month, one store only
    add(3, 89, 5)
  })
})

// Up to eight stores a page merges their ranges of calls_store (store/calls.ts MERGED_STORES);
// more take every row of the days between and sort them. Nine stores take the second way, with
// the same quiet month and seconds shared across stores, where ties fall to call_log_id.
describe('a dealer of nine stores', () => {
  dealerPages('nine stores', 9, (add) => {
    for (let d = 0; d < 90; d++) {
      if (d >= 30 && d < 60) continue
      add(1, d, 12)
      for (let s = 2; s <= 9; s++) if (d % s === 0) add(s, d, s - 1)
    }
    add(9, 45, 30)
    // one second of three stores, the later stores' calls first by call_log_id
    for (const s of [9, 5, 2]) add(s, 80, 3, '12:00:00')
  })
})

/** Pages of a dealer of `stores` stores (ids 1..stores), calls added by `fill`, against the pages worked out from its calls. */
function dealerPages(name: string, stores: number, fill: (add: (store: number, d: number, k: number, at?: string) => void) => void) {
  const db = openStore(':memory:')
  const calls: CallRow[] = []
  const day = (d: number) => new Date(Date.UTC(2025, 0, 1 + d)).toISOString().slice(0, 10)
  const classes = ['Answered', 'Missed', 'Offline']
  let n = 0
  const add = (store: number, d: number, k: number, at = '') => {
    for (let i = 0; i < k; i++, n++)
      calls.push({
        call_log_id: `T3-${String(n).padStart(5, '0')}`, website_id: store, call_start_time: `${day(d)} ${at || `${String(9 + (n % 10)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:00`}`,
        caller_number: `98${String(n % 37).padStart(8, '0')}`, duration_seconds: n % 90, did_number: '+918040000000', event_type: 'TEST',
        substatus: classes[(n * 7) % 3], recording_url: null, crm_lead_id: null, crm_synced_at: null, created_at: `${day(d)} 08:00:00`,
      })
  }
  fill(add)
  const other = stores + 1
  add(other, 10, 3) // another dealer's store: never in the pages
  loadRows(db, {
    integrations: [{ id: 1, name: 'Demo Partner', key_sha256: sha256Hex(DEMO_KEY), is_active: 1, created_at: '' }],
    dealers: [{ sap_code: 'SAP7001', dealer_name: 'Many Stores', is_active: 1 }, { sap_code: 'SAP7002', dealer_name: 'Other', is_active: 1 }],
    stores: Array.from({ length: other }, (_, i) => i + 1).map((id) => ({ website_id: id, sap_code: id === other ? 'SAP7002' : 'SAP7001', store_name: `Store ${id}`, city: 'Pune', district: 'Pune', state: 'Maharashtra', country: 'India', pincode: '411001', is_deleted: 0 })),
    employees: [], employee_dealers: [], products: [], product_images: [], metrics: [], calls,
  })
  const t = appOver(db, DEMO_SECRET, DEMO_IMAGE_BASE)
  const scope: Scope = { name: `sap_code SAP7001 (${name})`, body: { sap_code: 'SAP7001' }, sap: 'SAP7001' }
  // up to eight stores a page is their ranges merged, one arm a store; more, one read sorted
  test(`a page ${stores <= 8 ? 'merges' : 'sorts'} the ${stores} stores' calls`, async () => {
    const texts: string[] = []
    const query = db.$client.query.bind(db.$client)
    db.$client.query = ((sql: string) => (texts.push(sql), query(sql))) as typeof db.$client.query
    try {
      expect((await send(t, '/listing/listingtiles', { sap_code: 'SAP7001', from_date: day(0), to_date: day(89), page: 3 })).status).toBe(200)
    } finally {
      db.$client.query = query
    }
    const pages = texts.filter((sql) => sql.includes('FROM calls c INDEXED BY calls_store'))
    expect(pages.length).toBe(1)
    expect(pages[0].split('UNION ALL').length).toBe(stores <= 8 ? stores : 1)
  })
  const ranges: Range[] = [
    { name: 'all three months', from: day(0), to: day(89) },
    { name: 'from inside the quiet month', from: day(40), to: day(89) },
    { name: 'the quiet month', from: day(30), to: day(59) },
  ]
  for (const range of ranges)
    test(`call history: ${range.name}`, async () => {
      let matched = 0
      for (const [sub, values] of SUBSTATUS) matched += await checkHistory(t, scope, range, sub, values, [1, 13, 50])
      expect(matched).toBeGreaterThan(0)
    })
}
