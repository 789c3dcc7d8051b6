// Caller counts and durations of call rows (master-contract §2):
// - mobile: the last 10 digits of the digits of the caller number (all of them when fewer);
// - total_calls_from_caller: ALL calls rows with that mobile, any store, visible or not;
// - prev_calls_count: those strictly before this call by (call_start_time, call_log_id);
// - call_duration_minutes: duration_seconds / 60 rounded half-up to 2 decimals.
// The service keeps these as derived columns (calls.mobile, calls.prev_calls_count,
// and each caller's total in callers); the brute force here recomputes them from the base columns.
import { describe, expect, test } from 'bun:test'
import { seedDemo } from '../db/fixtures/demo'
import { applyChanges } from '../src/store/load'
import { mobileKey } from '../src/store/callCodec'
import { closeStore, openStore, type Store } from '../src/store/open'
import { demoApp, minutesHalfUp, sendAsDemo as send, type ExtraCall, type TestApp } from './helpers'

// ---------------------------------------------------------------- app and requests

const WHOLE = { from_date: '2025-01-01', to_date: '2025-06-30' }

/** Every call-history row of the range, walking pages of 500 until has_more is false. */
async function allHistoryRows(t: TestApp, body: Record<string, unknown> = WHOLE): Promise<any[]> {
  const rows: any[] = []
  for (let page = 1; ; page++) {
    const { status, json } = await send(t, '/listing/listingtiles', { ...body, page, limit: 500 })
    expect(status).toBe(200)
    rows.push(...json.data)
    if (!json.paging.has_more) return rows
  }
}

/** One store's call-log rows over the range (each visible demo store has fewer than 500). */
async function logRows(t: TestApp, store: number, body: Record<string, unknown> = WHOLE): Promise<any[]> {
  const { status, json } = await send(t, '/listing/calls', { ...body, storelookup: t.deps.storelookup.seal(1, store), limit: 500 })
  expect(status).toBe(200)
  expect(json.has_more).toBe(false)
  return json.data
}

// ---------------------------------------------------------------- brute force

/** master-contract §2, written out independently of src: digits only, then the last 10. */
const last10Digits = (n: string) => [...n].filter((ch) => ch >= '0' && ch <= '9').join('').slice(-10)

interface BaseCall {
  call_log_id: string
  website_id: number
  call_start_time: string
  caller_number: string
  duration_seconds: number
  visible: number
}

interface Expected {
  base: BaseCall
  mobile: string
  total: number
  prev: number
  visibleOnlyTotal: number // what a count over visible calls only would say
  sameSpellingTotal: number // what a count by the raw caller number would say
}

/** For every calls row: its mobile, its caller's lifetime count over ALL rows, and its rank in them. */
function bruteCallerCounts(db: Store): Map<string, Expected> {
  const all = db.$client
    .query<BaseCall, []>(
      `SELECT c.call_log_id, c.website_id, c.call_start_time, c.caller_number, c.duration_seconds,
         coalesce((SELECT s.visible FROM stores s WHERE s.website_id = c.website_id), 0) AS visible
       FROM calls_readable c`,
    )
    .all()
  const byMobile = new Map<string, BaseCall[]>()
  for (const c of all) {
    const m = last10Digits(c.caller_number)
    byMobile.set(m, [...(byMobile.get(m) ?? []), c])
  }
  const out = new Map<string, Expected>()
  for (const [mobile, calls] of byMobile) {
    // (call_start_time, call_log_id) ascending; the texts are ASCII, so < is SQLite's BINARY order
    calls.sort((a, b) => (a.call_start_time !== b.call_start_time ? (a.call_start_time < b.call_start_time ? -1 : 1) : a.call_log_id < b.call_log_id ? -1 : 1))
    calls.forEach((c, i) =>
      out.set(c.call_log_id, {
        base: c,
        mobile,
        total: calls.length,
        prev: i,
        visibleOnlyTotal: calls.filter((x) => x.visible === 1).length,
        sameSpellingTotal: calls.filter((x) => x.caller_number === c.caller_number).length,
      }),
    )
  }
  return out
}

/** A call-history row (2.1) against the brute force. */
function checkHistoryRow(row: any, e: Expected | undefined) {
  expect(e).toBeDefined()
  expect({
    id: row.call_log_id,
    call_number_with_c_code: row.call_number_with_c_code,
    mobile: row.mobile,
    total_calls_from_caller: row.total_calls_from_caller,
    prev_calls_count: row.prev_calls_count,
    call_duration_minutes: row.call_duration_minutes,
  }).toEqual({
    id: e!.base.call_log_id,
    call_number_with_c_code: e!.base.caller_number,
    mobile: e!.mobile,
    total_calls_from_caller: e!.total,
    prev_calls_count: e!.prev,
    call_duration_minutes: minutesHalfUp(e!.base.duration_seconds),
  })
}

/** A call-log row (2.6) against the brute force. */
function checkLogRow(row: any, e: Expected | undefined) {
  expect(e).toBeDefined()
  expect({
    id: row.call_log_id,
    caller_number: row.caller_number,
    total_calls_from_caller: row.total_calls_from_caller,
    prev_calls_count: row.prev_calls_count,
    call_duration_minutes: row.call_duration_minutes,
  }).toEqual({
    id: e!.base.call_log_id,
    caller_number: e!.base.caller_number,
    total_calls_from_caller: e!.total,
    prev_calls_count: e!.prev,
    call_duration_minutes: minutesHalfUp(e!.base.duration_seconds),
  })
}

// Durations whose minutes are fixed by the contract's rule (half-up, 2 decimals),
// written out by hand so they do not depend on minutesHalfUp (test/helpers.ts) either.
const DURATIONS: [number, number][] = [
  [0, 0], [1, 0.02], [7, 0.12], [40, 0.67], [42, 0.7], [50, 0.83], [59, 0.98],
  [60, 1], [89, 1.48], [91, 1.52], [125, 2.08], [3599, 59.98], [3600, 60],
]

// ---------------------------------------------------------------- the demo data as seeded

describe('demo data: every call-history row over the whole range', () => {
  const demo = demoApp()
  const expected = bruteCallerCounts(demo.db)

  test('mobile, caller totals, previous calls and minutes equal the brute force', async () => {
    const rows = await allHistoryRows(demo)
    const visible = [...expected.values()].filter((e) => e.base.visible === 1 && e.base.call_start_time <= '2025-06-30 23:59:59')
    expect(rows.length).toBe(visible.length) // every visible call, once
    for (const row of rows) checkHistoryRow(row, expected.get(row.call_log_id))

    // the data can tell the contract's counts from the tempting wrong ones
    expect(rows.filter((r) => expected.get(r.call_log_id)!.visibleOnlyTotal !== r.total_calls_from_caller).length).toBeGreaterThan(100)
    expect(rows.filter((r) => expected.get(r.call_log_id)!.sameSpellingTotal !== r.total_calls_from_caller).length).toBeGreaterThan(100)
    expect(rows.filter((r) => r.mobile !== r.call_number_with_c_code).length).toBeGreaterThan(100)
  })

  test('the call log (per store) carries the same counts and minutes', async () => {
    for (const store of [1, 2, 3, 4, 5, 7, 8, 9]) {
      const rows = await logRows(demo, store)
      expect(rows.length).toBeGreaterThan(200)
      for (const row of rows) checkLogRow(row, expected.get(row.call_log_id))
    }
  })

  test('demo calls of 42, 50 and 125 seconds show 0.7, 0.83 and 2.08 minutes', async () => {
    for (const [seconds, minutes] of DURATIONS.filter(([s]) => [42, 50, 125].includes(s))) {
      const ids = [...expected.values()].filter((e) => e.base.visible === 1 && e.base.duration_seconds === seconds).map((e) => e.base.call_log_id)
      expect(ids.length).toBeGreaterThan(0)
      for (const call_log_id of ids) {
        const { status, json } = await send(demo, '/listing/listingtiles', { ...WHOLE, call_log_id })
        expect(status).toBe(200)
        expect({ call_log_id, minutes: json.data[0].call_duration_minutes }).toEqual({ call_log_id, minutes })
      }
    }
  })
})

// ---------------------------------------------------------------- added calls: spellings, invisible places, ties, late arrivals

describe('added calls: one caller everywhere, short numbers, ties, durations', () => {
  // One caller, 8123456789, spelled five ways, calling visible store 1, the inactive
  // dealer's store 6, the deleted store 10, a NULL website_id (0) and an unknown store 99.
  const X: ExtraCall[] = [
    { store: 1, time: '2025-04-02 10:00:00', id: 'X-3', caller: '+91-81234-56789' },
    { store: 6, time: '2025-04-01 09:00:00', id: 'X-1', caller: '0091 8123456789' },
    { store: 1, time: '2025-04-02 10:00:00', id: 'X-2', caller: '8123456789' }, // same second as X-3: id decides
    { store: 10, time: '2025-04-03 11:00:00', id: 'X-4', caller: '(+91) 81234 56789' },
    { store: 0, time: '2025-04-04 12:00:00', id: 'X-5', caller: '+918123456789' },
    { store: 99, time: '2025-04-05 13:00:00', id: 'X-6', caller: '918123456789' },
    { store: 7, time: '2025-04-06 14:00:00', id: 'X-7', caller: '08123456789' },
    { store: 1, time: '2025-03-01 08:00:00', id: 'X-0', caller: '8123456789' }, // arrives last, happened first
  ]
  // Numbers with fewer than 10 digits keep all of them: "12345" and "0012345" are different callers.
  const SHORT: ExtraCall[] = [
    { store: 1, time: '2025-05-01 10:00:00', id: 'S-1', caller: '12345' },
    { store: 2, time: '2025-05-02 10:00:00', id: 'S-2', caller: '12-345' },
    { store: 1, time: '2025-05-03 10:00:00', id: 'S-3', caller: '0012345' },
    { store: 1, time: '2025-05-04 10:00:00', id: 'S-4', caller: '+44 20 7946 0958' }, // 12 digits → 2079460958
  ]
  const DUR: ExtraCall[] = DURATIONS.map(([seconds], i) => ({
    store: 5,
    time: `2025-05-10 10:${String(i).padStart(2, '0')}:00`,
    id: `DUR-${seconds}`,
    caller: `+91 7000000${String(i).padStart(3, '0')}`,
    seconds,
  }))
  const t = demoApp([...X, ...SHORT, ...DUR])
  const expected = bruteCallerCounts(t.db)

  test('every call-history row still equals the brute force', async () => {
    const rows = await allHistoryRows(t)
    for (const row of rows) checkHistoryRow(row, expected.get(row.call_log_id))
    for (const id of ['X-0', 'X-2', 'X-3', 'X-7', 'S-1', 'S-2', 'S-3', 'S-4', 'DUR-42']) expect(rows.some((r) => r.call_log_id === id)).toBe(true)
    // invisible calls count for the caller but are not rows
    for (const id of ['X-1', 'X-4', 'X-5', 'X-6']) expect(rows.some((r) => r.call_log_id === id)).toBe(false)
  })

  test('the caller seen everywhere: 8 calls in all, ranked by time then call_log_id', async () => {
    // by hand: X-0 (03-01), X-1 (04-01), X-2 and X-3 (04-02 10:00:00, by id), X-4, X-5, X-6, X-7
    const want: Record<string, number> = { 'X-0': 0, 'X-2': 2, 'X-3': 3, 'X-7': 7 }
    const rows = (await allHistoryRows(t, { from_date: '2025-03-01', to_date: '2025-04-30' })).filter((r) => r.call_log_id.startsWith('X-'))
    expect(rows.map((r) => [r.call_log_id, r.mobile, r.total_calls_from_caller, r.prev_calls_count])).toEqual(
      ['X-0', 'X-2', 'X-3', 'X-7'].map((id) => [id, '8123456789', 8, want[id]]),
    )
    // the call-by-id path and the call log say the same
    for (const id of Object.keys(want)) {
      const { json } = await send(t, '/listing/listingtiles', { ...WHOLE, call_log_id: id })
      expect([id, json.data[0].total_calls_from_caller, json.data[0].prev_calls_count]).toEqual([id, 8, want[id]])
    }
    const log = (await logRows(t, 1, { from_date: '2025-03-01', to_date: '2025-04-30' })).filter((r) => r.call_log_id.startsWith('X-'))
    expect(log.map((r) => [r.call_log_id, r.total_calls_from_caller, r.prev_calls_count])).toEqual([
      ['X-0', 8, 0],
      ['X-2', 8, 2],
      ['X-3', 8, 3],
    ])
  })

  test('short and long numbers: all digits when fewer than 10, the last 10 otherwise', async () => {
    const rows = (await allHistoryRows(t, { from_date: '2025-05-01', to_date: '2025-05-04' })).filter((r) => r.call_log_id.startsWith('S-'))
    expect(rows.map((r) => [r.call_log_id, r.mobile, r.total_calls_from_caller, r.prev_calls_count])).toEqual([
      ['S-1', '12345', 2, 0],
      ['S-2', '12345', 2, 1],
      ['S-3', '0012345', 1, 0],
      ['S-4', '2079460958', 1, 0],
    ])
  })

  test('call_duration_minutes is seconds / 60 rounded half-up to 2 decimals, in both shapes', async () => {
    const history = (await allHistoryRows(t, { from_date: '2025-05-10', to_date: '2025-05-10' })).filter((r) => r.call_log_id.startsWith('DUR-'))
    const log = (await logRows(t, 5, { from_date: '2025-05-10', to_date: '2025-05-10' })).filter((r) => r.call_log_id.startsWith('DUR-'))
    const want = DURATIONS.map(([s, m]) => [`DUR-${s}`, m])
    expect(history.map((r) => [r.call_log_id, r.call_duration_minutes])).toEqual(want)
    expect(log.map((r) => [r.call_log_id, r.call_duration_minutes])).toEqual(want)
    // and via the call-by-id path
    for (const [id, m] of want) {
      const { json } = await send(t, '/listing/listingtiles', { ...WHOLE, call_log_id: id })
      expect([id, json.data[0].call_duration_minutes]).toEqual([id, m])
    }
  })
})

describe('an incremental run numbers a new call as it goes in', () => {
  /** The calls whose prev_calls_count an UPDATE rewrote, noted by a trigger of the test's own. */
  function withRewrites(db: Store) {
    db.$client.run('CREATE TEMP TABLE rewrites (call_log_id TEXT)')
    db.$client.run('CREATE TEMP TRIGGER noted AFTER UPDATE OF prev_calls_count ON main.calls BEGIN INSERT INTO rewrites VALUES (new.call_log_id); END')
    return () => db.$client.query<{ call_log_id: string }, []>('SELECT call_log_id FROM rewrites ORDER BY call_log_id').all().map((r) => r.call_log_id)
  }
  const call = (id: string, time: string, caller: string) => ({
    call_log_id: id, website_id: 1, call_start_time: time, caller_number: caller, duration_seconds: 30, did_number: '+918040099999',
    event_type: 'TEST', substatus: 'Answered', recording_url: null, crm_lead_id: null, crm_synced_at: null, created_at: time,
  })
  const stored = (db: Store) => new Map(db.$client.query<{ call_log_id: string; prev_calls_count: number }, []>('SELECT call_log_id, prev_calls_count FROM calls').all().map((r) => [r.call_log_id, r.prev_calls_count]))
  const expectBruteForce = (db: Store) => {
    const have = stored(db)
    const totals = new Map(db.$client.query<{ mobile: number; total: number }, []>('SELECT mobile, total FROM callers').all().map((r) => [r.mobile, r.total]))
    for (const [id, e] of bruteCallerCounts(db)) {
      expect([id, have.get(id)]).toEqual([id, e.prev])
      expect([id, totals.get(mobileKey(e.mobile))]).toEqual([id, e.total])
    }
  }

  test("calls after each caller's last are not rewritten; a late call rewrites exactly the calls after it; a moved early call is counted afresh", () => {
    const db = openStore(':memory:')
    seedDemo(db)
    const busiest = db.$client.query<{ caller_number: string; last: string }, []>(
      'SELECT caller_number, max(call_start_time) AS last FROM calls_readable GROUP BY mobile ORDER BY count(*) DESC LIMIT 1').get()!
    const rewritten = withRewrites(db)
    const run = (...calls: ReturnType<typeof call>[]) => {
      db.$client.run('DELETE FROM rewrites')
      applyChanges(db, { calls })
      expectBruteForce(db)
      return rewritten()
    }
    // a known caller's call after all of its calls, and a new caller's first: both go in numbered
    expect(run(call('NEW-A', '2025-06-30 23:30:00', busiest.caller_number), call('NEW-C', '2025-06-30 23:45:00', '+91 9111111111'))).toEqual([])
    // a new caller's two calls in one run, in time order: each went in as the last, the caller's total is 2
    expect(run(call('NEW-P', '2025-06-30 23:10:00', '+91 9222222222'), call('NEW-Q', '2025-06-30 23:20:00', '+91 9222222222'))).toEqual([])
    // two in one run whose call_log_ids run against their times: the one taken first went in a place early
    expect(run(call('NEW-1', '2025-06-30 23:50:00', busiest.caller_number), call('NEW-2', '2025-06-30 23:40:00', busiest.caller_number))).toEqual(['NEW-1'])
    // a late call, before the caller's last three: exactly those move up one
    expect(run(call('LATE', '2025-06-30 23:00:00', busiest.caller_number))).toEqual(['NEW-1', 'NEW-2', 'NEW-A'])
    // a new last call taken first (its call_log_id sorts first), then an early call of the same caller
    // moved a day on: the earliest touched place is the moved call's old one, counted afresh
    const early = db.$client.query<ReturnType<typeof call>, [string]>(`SELECT call_log_id, website_id, call_start_time, caller_number, duration_seconds, did_number,
      event_type, substatus, recording_url, crm_lead_id, crm_synced_at, created_at FROM calls_readable WHERE caller_number = ? ORDER BY call_start_time LIMIT 1 OFFSET 1`).get(busiest.caller_number)!
    const dayOn = `${new Date(Date.parse(`${early.call_start_time.slice(0, 10)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)}${early.call_start_time.slice(10)}`
    expect(run(call('A-NEW', '2025-06-30 23:59:00', busiest.caller_number), { ...early, call_start_time: dayOn, created_at: dayOn })).toEqual([])
    closeStore(db)
  })
})

