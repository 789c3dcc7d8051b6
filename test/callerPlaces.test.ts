// A full load counts each call's place in its caller's sequence as the calls pass in the
// master's order (store/derive/callerPlaces.ts): callers whose calls come out of order are
// renumbered after the sort, and past its limits the load numbers every call with a window.
// Whatever the order the calls come in and whichever way they were numbered, each call's
// prev_calls_count and each caller's total equal master-contract §2 worked out here by brute force.
import { describe, expect, test } from 'bun:test'
import { CallerPlaces } from '../src/store/derive/callerPlaces'
import { bucketOf, bucketsFrom } from '../src/store/derive/callers'
import { Changes } from '../src/store/changes'
import { storeFaces } from '../src/store/derive/stores'
import { openFeedSeq } from '../src/store/feed'
import { istNow } from '../src/store/freshness'
import { loadRows } from '../src/store/load'
import { CALL_BUCKET_SQL } from '../src/store/schema'
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

// ---------------------------------------------------------------- incremental runs against the brute force

/** master-contract §2's order as the store keeps it: a start that is a time before one that stays text (callCodec.ts). */
const isTime = (t: string) => !Number.isNaN(Date.parse(`${t.replace(' ', 'T')}Z`)) && new Date(`${t.replace(' ', 'T')}Z`).toISOString().slice(0, 19).replace('T', ' ') === t
const placeKey = (r: CallRow) => `${isTime(r.call_start_time) ? 0 : 1}${r.call_start_time}|${r.call_log_id}`

function bruteByKey(rows: CallRow[]): { places: Map<string, number>; totals: Map<string, number> } {
  const places = new Map<string, number>()
  const totals = new Map<string, number>()
  const byCaller = new Map<string, CallRow[]>()
  for (const r of rows) byCaller.set(mobileOf(r), [...(byCaller.get(mobileOf(r)) ?? []), r])
  for (const [mobile, own] of byCaller) {
    own.sort((a, b) => (placeKey(a) < placeKey(b) ? -1 : 1)).forEach((r, i) => places.set(r.call_log_id, i))
    totals.set(mobile, own.length)
  }
  return { places, totals }
}

/** One incremental run, as sync applies it: changed and new calls, then the calls the master no longer has. */
function run(db: ReturnType<typeof openStore>, upserts: CallRow[], removed: string[]): void {
  const client = db.$client
  client.transaction(() => {
    const changes = new Changes(client, storeFaces(client), openFeedSeq(client, istNow()), { stores: false, products: false }, () => {})
    changes.calls(upserts)
    changes.removeCalls(removed)
    changes.refresh()
  })()
}

describe('incremental runs number every call as the contract does, across calls_mobile’s time buckets', () => {
  // 30 callers over 400 days (33 buckets of 2^20 s), a few starts that stay text
  const day = (d: number, s: number) => new Date(Date.UTC(2025, 0, 1) + d * 86_400_000 + s * 1000).toISOString().slice(0, 19).replace('T', ' ')
  const callAt = (i: number, caller: number, time: string): CallRow => ({
    call_log_id: `R${pad(next(1000), 3)}-${i}`, website_id: 1 + next(3), call_start_time: time, caller_number: `+91${9_700_000_000 + caller * 7_654_321}`,
    duration_seconds: next(100), did_number: '+918000000001', event_type: 'ANSWERED', substatus: 'Answered', recording_url: null, crm_lead_id: null, crm_synced_at: null, created_at: time,
  })
  const randomTime = () => (next(40) === 0 ? `2025-02-3${next(2)} 10:00:00` : day(next(400), next(4) * 20_000))
  const randomCaller = () => Math.floor(Math.pow(next(1000) / 1000, 2) * 30)

  for (const trial of [1, 2, 3, 4]) {
    test(`trial ${trial}: new calls late and in time, callers and starts changed, calls removed, several in one run`, () => {
      seed = 1000 + trial
      let n = 0
      const current = new Map<string, CallRow>()
      for (let i = 0; i < 300; i++) {
        const c = callAt(n++, randomCaller(), randomTime())
        current.set(c.call_log_id, c)
      }
      const db = openStore(':memory:')
      const rows = { dealers: [], stores: [], employees: [], employee_dealers: [], products: [], product_images: [], integrations: [], metrics: [], calls: [...current.values()] } as unknown as StoreRows
      loadRows(db, rows, '2025-03-04 00:00:00', new CallerPlaces({ slots: 1 << 10, disordered: 1000 }))
      for (let round = 0; round < 6; round++) {
        const upserts: CallRow[] = []
        const removed: string[] = []
        const ids = () => [...current.keys()]
        for (let k = 0; k < 40; k++) {
          const kind = next(10)
          const id = ids()[next(current.size)]
          if (kind < 4) {
            // a new call: mostly after everything, as a day brings them; some late
            const c = callAt(n++, randomCaller(), kind < 3 ? day(400 + round, next(86_400)) : randomTime())
            upserts.push(c)
            current.set(c.call_log_id, c)
          } else if (kind < 6) {
            const c = { ...current.get(id)!, caller_number: `0${9_700_000_000 + randomCaller() * 7_654_321}` }
            upserts.push(c)
            current.set(id, c)
          } else if (kind < 8) {
            const c = { ...current.get(id)!, call_start_time: randomTime() }
            upserts.push(c)
            current.set(id, c)
          } else if (!upserts.some((u) => u.call_log_id === id)) {
            removed.push(id)
            current.delete(id)
          }
        }
        run(db, upserts, removed)
        const got = db.$client.query('SELECT call_log_id, prev_calls_count FROM calls').all() as { call_log_id: string; prev_calls_count: number }[]
        const totals = db.$client.query("SELECT substr(CAST(mobile AS TEXT), 2) AS mobile, total FROM callers WHERE total > 0").all() as { mobile: string; total: number }[]
        expect({ places: new Map(got.map((r) => [r.call_log_id, r.prev_calls_count])), totals: new Map(totals.map((r) => [r.mobile, r.total])) }).toEqual(bruteByKey([...current.values()]))
      }
      // the runs spanned many buckets, and some starts stayed text
      expect((db.$client.query(`SELECT count(DISTINCT ${CALL_BUCKET_SQL}) AS n FROM calls`).get() as { n: number }).n).toBeGreaterThan(20)
      expect((db.$client.query("SELECT count(*) AS n FROM calls WHERE typeof(start) = 'text'").get() as { n: number }).n).toBeGreaterThan(0)
    })
  }
})

test("calls_mobile's bucket of a start, worked out in the code, is the one SQLite's index holds", () => {
  const db = openStore(':memory:')
  const starts: (number | string)[] = [0, 1, 2 ** 20 - 1, 2 ** 20, 2 ** 20 + 1, 1_735_689_600, 4_294_967_295, -1, -(2 ** 20), -(2 ** 20) - 1, 1.5, 1_048_575.9, -0.5, '2025-02-30 10:00:00', '']
  const inSql = db.$client.query<{ b: number }, [number | string]>(`SELECT ${CALL_BUCKET_SQL} AS b FROM (SELECT ? AS start)`)
  expect(starts.map((s) => bucketOf(s))).toEqual(starts.map((s) => inSql.get(s)!.b))
})

test("a caller's buckets from a place on are those that hold calls: a lone call in 2099 adds one, not the empty ones before it", () => {
  const db = openStore(':memory:')
  const at = (t: string) => Date.parse(`${t}Z`) / 1000
  const insert = db.$client.query('INSERT INTO calls (start, call_log_id, website_id, caller_number, duration_seconds, did_number, event_type, substatus, created_at, mobile) VALUES (?, ?, 0, \'\', 0, 0, 0, 1, 0, 1)')
  for (const [i, t] of ['2025-01-01T00:00:00', '2025-01-02T00:00:00', '2025-03-01T00:00:00', '2099-01-01T00:00:00'].entries()) insert.run(at(t), `B${i}`)
  const buckets = bucketsFrom(db.$client)
  const [jan, mar, far] = ['2025-01-01T00:00:00', '2025-03-01T00:00:00', '2099-01-01T00:00:00'].map((t) => bucketOf(at(t)))
  expect(JSON.parse(buckets(at('2025-01-01T12:00:00')))).toEqual([jan, mar, far])
  expect(JSON.parse(buckets(at('2025-02-01T00:00:00')))).toEqual([mar, far])
  expect(JSON.parse(buckets(-Infinity))).toEqual([jan, mar, far])
  expect(JSON.parse(buckets(at('2099-06-01T00:00:00')))).toEqual([])
  insert.run('2025-02-30 10:00:00', 'T1') // a start that stays text: its bucket orders after every number
  expect(JSON.parse(buckets(at('2099-06-01T00:00:00')))).toEqual([4503599627370496])
  expect(JSON.parse(buckets('2025-02-30 10:00:00'))).toEqual([4503599627370496])
})

test('a full load of 700 callers writes every total it counted (whole statements of 256 callers and the rest)', () => {
  const many: CallRow[] = Array.from({ length: 1_400 }, (_, i) => ({
    ...calls[0], call_log_id: `M${i}`, caller_number: String(9_600_000_000 + (i % 700) * 9_973 + (i % 3)), call_start_time: `2025-03-0${1 + (i % 3)} 10:00:0${i % 10}`,
  }))
  const places = new CallerPlaces({ slots: 1 << 11, disordered: 1000 })
  const got = loaded(many, places)
  expect(places.gaveUp).toBe(false)
  expect(got.totals.size).toBeGreaterThan(512)
  expect(got).toEqual(bruteForce(many))
})
