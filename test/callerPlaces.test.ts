// A full load counts each call's place in its caller's sequence as the calls pass in the
// master's order (store/derive/callerPlaces.ts): callers whose calls come out of order are
// renumbered after the sort, and past its limits the load numbers every call with a window.
// Whatever the order the calls come in and whichever way they were numbered, each call's
// prev_calls_count and each caller's total equal master-contract §2 worked out here by brute force.
import { describe, expect, test } from 'bun:test'
import { CallerPlaces } from '../src/store/derive/callerPlaces'
import { loadRows } from '../src/store/load'
import { openStore } from '../src/store/open'
import type { CallRow, StoreRows } from '../src/store/rows'

describe('counting places as calls pass', () => {
  test('calls in time order take 0, 1, 2 … in their own caller’s sequence', () => {
    const places = new CallerPlaces()
    expect([places.place(17_000_000_001, 100), places.place(17_000_000_002, 50), places.place(17_000_000_001, 200)]).toEqual([0, 0, 1])
    expect([places.place(17_000_000_001, 300), places.place(17_000_000_002, 60)]).toEqual([2, 1])
    expect(places.disordered.size).toBe(0)
    expect(places.counted()).toBe(true)
  })

  test('an earlier call, one in the same second, or one whose time is text marks its caller; the others stay', () => {
    const places = new CallerPlaces()
    places.place(11, 100)
    expect(places.place(11, 90)).toBe(1) // counted all the same: the caller's total is right
    places.place(12, 100)
    places.place(12, 100) // call_log_id decides: left to the renumbering
    places.place(13, 'not a time')
    places.place(14, 100)
    places.place(14, 101)
    places.place(15, -1) // before 1970: not what the table holds
    places.place(16, 100.5)
    places.place(16, 100.2) // not whole seconds
    places.place(17, 2 ** 32) // past 2106
    expect([...places.disordered].sort((a, b) => a - b)).toEqual([11, 12, 13, 15, 16, 17])
    expect(places.counted()).toBe(true)
  })

  test('mobiles equal in their low 32 bits are different callers', () => {
    // a small table, so that look-ups probe past slots of the others
    const places = new CallerPlaces({ slots: 64, disordered: 10 })
    const mobiles = Array.from({ length: 40 }, (_, k) => 5 + k * 2 ** 32)
    expect(mobiles.map((m) => places.place(m, 1))).toEqual(mobiles.map(() => 0))
    expect(mobiles.map((m) => places.place(m, 2))).toEqual(mobiles.map(() => 1))
  })

  test('a table of 32,768 slots holds 20,000 callers with every count kept', () => {
    const places = new CallerPlaces({ slots: 1 << 15, disordered: 10 })
    const mobiles = Array.from({ length: 20_000 }, (_, i) => 17_000_000_000 + i * 7919)
    for (const m of mobiles) expect(places.place(m, 10)).toBe(0)
    for (const m of mobiles) expect(places.place(m, 20)).toBe(1)
    expect(places.place(mobiles[12_345], 30)).toBe(2)
    expect(places.disordered.size).toBe(0)
    expect(places.counted()).toBe(true)
  })

  test('a table of slots not a power of two is refused: its probing would leave slots out', () => {
    expect(() => new CallerPlaces({ slots: 100, disordered: 10 })).toThrow('power of two')
  })

  test('a table sized for a load of known calls never stops counting, even with every call a new caller', () => {
    for (const calls of [0, 1, 11, 12, 13, 1000]) {
      const places = CallerPlaces.forCalls(calls)
      for (let i = 1; i <= calls; i++) expect(places.place(i, i)).toBe(0)
      expect(places.gaveUp).toBe(false)
    }
  })

  test('past its slots it stops counting, and the load is told so', () => {
    const places = new CallerPlaces({ slots: 64, disordered: 10 })
    for (let i = 1; i <= 48; i++) places.place(i, 1)
    expect(places.gaveUp).toBe(false)
    places.place(49, 1)
    expect(places.gaveUp).toBe(true)
    expect(places.counted()).toBe(false)
  })

  test('past its limit of callers out of order it stops counting', () => {
    const places = new CallerPlaces({ slots: 1024, disordered: 2 })
    for (const m of [1, 2, 3]) {
      places.place(m, 5)
      places.place(m, 4)
      expect(places.gaveUp).toBe(m === 3)
    }
    expect(places.counted()).toBe(false)
  })
})

// ---------------------------------------------------------------- whole loads against the brute force

let seed = 11
const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)
const pad = (n: number, w = 2) => String(n).padStart(w, '0')
/** 2,400 calls of 80 callers over three days: a few callers ring often, some twice in one second, under differently written numbers. */
const calls: CallRow[] = Array.from({ length: 2_400 }, (_, i) => {
  const caller = Math.floor(Math.pow(next(1000) / 1000, 3) * 80)
  const second = next(3 * 86_400)
  const time = `2025-03-${pad(1 + Math.floor(second / 86_400))} ${pad(Math.floor(second / 3600) % 24)}:${pad(Math.floor(second / 60) % 60)}:${pad(second % 60)}`
  const digits = String(9_800_000_000 + caller * 1_234_567)
  const number = [digits, `+91${digits}`, `0${digits.slice(0, 5)} ${digits.slice(5)}`][next(3)]
  return {
    call_log_id: `C${pad(next(100_000), 6)}-${i}`, website_id: 1 + next(5), call_start_time: time, caller_number: number, duration_seconds: next(300),
    did_number: '+918000000001', event_type: 'ANSWERED', substatus: 'Answered', recording_url: null, crm_lead_id: null, crm_synced_at: null, created_at: time,
  }
})
// the same second for one caller, told apart by call_log_id
for (let i = 0; i < 40; i++) calls.push({ ...calls[i * 7], call_log_id: `${calls[i * 7].call_log_id}-again` })

const mobileOf = (r: CallRow) => r.caller_number.replace(/\D/g, '').slice(-10)

/** master-contract §2 written out: the last ten digits, and the caller's calls strictly before by (call_start_time, call_log_id). */
function bruteForce(rows: CallRow[]): { places: Map<string, number>; totals: Map<string, number> } {
  const mobile = mobileOf
  const places = new Map<string, number>()
  const totals = new Map<string, number>()
  for (const r of rows) {
    totals.set(mobile(r), (totals.get(mobile(r)) ?? 0) + 1)
    const before = rows.filter((o) => mobile(o) === mobile(r) && (o.call_start_time < r.call_start_time || (o.call_start_time === r.call_start_time && o.call_log_id < r.call_log_id)))
    places.set(r.call_log_id, before.length)
  }
  return { places, totals }
}
const expected = bruteForce(calls)
const callersTwiceInASecond = new Set(calls.filter((r, i) => calls.some((o, j) => j !== i && mobileOf(o) === mobileOf(r) && o.call_start_time === r.call_start_time)).map(mobileOf)).size

function loaded(order: CallRow[], places: CallerPlaces) {
  const db = openStore(':memory:')
  const rows = { dealers: [], stores: [], employees: [], employee_dealers: [], products: [], product_images: [], integrations: [], metrics: [], calls: order } as unknown as StoreRows
  loadRows(db, rows, '2025-03-04 00:00:00', places)
  const got = db.$client.query('SELECT call_log_id, prev_calls_count FROM calls').all() as { call_log_id: string; prev_calls_count: number }[]
  const totals = db.$client.query("SELECT substr(CAST(mobile AS TEXT), 2) AS mobile, total FROM callers WHERE total > 0").all() as { mobile: string; total: number }[]
  return { places: new Map(got.map((r) => [r.call_log_id, r.prev_calls_count])), totals: new Map(totals.map((r) => [r.mobile, r.total])) }
}

const byTime = [...calls].sort((a, b) => (a.call_start_time < b.call_start_time ? -1 : a.call_start_time > b.call_start_time ? 1 : a.call_log_id < b.call_log_id ? -1 : 1))
const orders: Record<string, CallRow[]> = {
  'in time order': byTime,
  'in time order, calls of one second the other way round': byTime.map((_, i) => byTime[i]).sort((a, b) => (a.call_start_time < b.call_start_time ? -1 : a.call_start_time > b.call_start_time ? 1 : a.call_log_id < b.call_log_id ? 1 : -1)),
  'in reverse': [...byTime].reverse(),
  'as generated (no order)': calls,
}

describe('a full load numbers every call as the contract does, whatever the order calls come in', () => {
  for (const [name, order] of Object.entries(orders)) {
    test(`${name}: counted as they pass`, () => {
      const places = new CallerPlaces()
      const got = loaded(order, places)
      expect(places.gaveUp).toBe(false)
      // in time order, only the callers with two calls in one second are left to the renumbering
      // (the second order needs it: call_log_id puts those calls the other way round)
      if (name.startsWith('in time order')) expect(places.disordered.size).toBe(callersTwiceInASecond)
      else expect(places.disordered.size).toBeGreaterThan(callersTwiceInASecond)
      expect(got).toEqual(expected)
    })
  }

  test('as generated, past the limit of callers out of order: numbered by the window', () => {
    const places = new CallerPlaces({ slots: 1 << 16, disordered: 5 })
    const got = loaded(calls, places)
    expect(places.gaveUp).toBe(true)
    expect(got).toEqual(expected)
  })

  test('in time order, past the slots: numbered by the window', () => {
    const places = new CallerPlaces({ slots: 64, disordered: 1000 })
    const got = loaded(byTime, places)
    expect(places.gaveUp).toBe(true)
    expect(got).toEqual(expected)
  })
})
