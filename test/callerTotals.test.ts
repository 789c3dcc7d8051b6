// Caller totals held in memory (src/store/callerTotals.ts): a base read in
// slices beside the requests, then each data version's changes taken in on top;
// every total equals the callers table's, whichever way it is found.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedDemo } from '../db/fixtures/demo'
import { CHANGED_SINCE_SQL, callerChangesReadOnRequest, callerTotals, callerTotalsInMemory } from '../src/store/callerTotals'
import { CALLER_CHANGES_FROM, CALLER_CHANGES_KEPT_SECONDS } from '../src/store/derive/callers'
import { applyChanges } from '../src/store/load'
import { closeStore, openStore, type Store } from '../src/store/open'
import type { CallRow } from '../src/store/rows'
import { readSnapshot } from '../src/store/snapshot'
import { callRowOf } from './helpers'

const turn = () => new Promise((resolve) => setImmediate(resolve))

/** Every caller's total as the served connection finds it, against the table's own, in one snapshot. */
function compare(served: Store): { inMemory: boolean; callers: number } {
  return readSnapshot(served, () => {
    const totalOf = callerTotals(served)
    const truth = served.$client.query<{ mobile: number; total: number }, []>('SELECT mobile, total FROM callers').all()
    for (const { mobile, total } of truth) expect(totalOf(mobile)).toBe(total)
    expect(totalOf(19_999_999_999)).toBe(0) // a caller the store never saw
    expect(totalOf(10_000_000_000)).toBe(0)
    // numbers between known callers: found nowhere, whichever way the search guesses
    const known = new Set(truth.map((r) => r.mobile))
    for (const { mobile } of truth) for (const near of [mobile - 1, mobile + 1, mobile + 7_919]) if (!known.has(near)) expect(totalOf(near)).toBe(0)
    return { inMemory: callerTotalsInMemory(served), callers: truth.length }
  })
}

/** A file store of the demo fixtures, and a serving connection on it once it holds every caller in memory. */
async function servedDemoStore(): Promise<{ writer: Store; served: Store }> {
  const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
  const writer = openStore(path)
  seedDemo(writer)
  const served = openStore(path, { migrate: false, serving: true })
  for (let i = 0; i < 20 && !compare(served).inMemory; i++) await turn()
  return { writer, served }
}

/** A new answered call of store 1 from a caller, at a time. */
const call = (id: string, caller: string, time: string) => callRowOf({ id, store: 1, time, caller })

describe('caller totals in memory', () => {
  test('a file store: seeks until the base is read beside the requests, then memory, with every later sync taken in', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    const writer = openStore(path)
    seedDemo(writer)
    const served = openStore(path, { migrate: false, serving: true })
    expect(compare(served).inMemory).toBe(false) // the base is only being read
    for (let i = 0; i < 20 && !compare(served).inMemory; i++) await turn()
    const first = compare(served)
    expect(first.inMemory).toBe(true)
    // a sync: new calls from a known caller and from new ones, and a caller moved to another number
    const known = served.$client.query<{ caller_number: string }, []>('SELECT caller_number FROM calls LIMIT 1').get()!.caller_number
    const moved = served.$client.query<CallRow, []>(`SELECT call_log_id, website_id, call_start_time, caller_number, duration_seconds, did_number, event_type, substatus,
      recording_url, crm_lead_id, crm_synced_at, created_at FROM calls_readable LIMIT 1 OFFSET 7`).get()!
    await turn()
    applyChanges(writer, {
      calls: [
        ...[1, 2, 3].map((i) => ({ call_log_id: `NEW-${i}`, website_id: 1, call_start_time: `2025-06-30 2${i}:00:00`, caller_number: i === 1 ? known : `+91 99${i}0000000`, duration_seconds: 30,
          did_number: 'd', event_type: 'ANSWERED', substatus: 'Answered', recording_url: null, crm_lead_id: null, crm_synced_at: null, created_at: `2025-06-30 2${i}:00:00` })),
        { ...moved, caller_number: '+91 9888888888' },
      ],
    })
    // the served connection moves to the commit once its watcher has seen it (store/snapshot.ts)
    const callers = () => readSnapshot(served, () => served.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM callers').get()!.n)
    const readOnRequest = callerChangesReadOnRequest()
    for (let i = 0; i < 200 && callers() === first.callers; i++) await Bun.sleep(5)
    const after = compare(served)
    expect(after.inMemory).toBe(true)
    expect(after.callers).toBe(first.callers + 3)
    // the watcher read the sync's changed callers before the connection moved to it: no request did
    expect(callerChangesReadOnRequest()).toBe(readOnRequest)
    // a second sync, taken in on top of the first's changes: a caller of the first sync calls again,
    // a known caller and a new one call; callers changed only by the first keep their totals
    const [totalsBefore, lookupBefore] = readSnapshot(served, () => [served.$client.query<{ mobile: number; total: number }, []>('SELECT mobile, total FROM callers').all(), callerTotals(served)] as const)
    applyChanges(writer, {
      calls: ['+91 9920000000', known, '+91 9770000000'].map((caller_number, i) => ({ call_log_id: `NEWER-${i}`, website_id: 1, call_start_time: `2025-07-01 1${i}:00:00`, caller_number,
        duration_seconds: 30, did_number: 'd', event_type: 'ANSWERED', substatus: 'Answered', recording_url: null, crm_lead_id: null, crm_synced_at: null, created_at: `2025-07-01 1${i}:00:00` })),
    })
    for (let i = 0; i < 200 && callers() === first.callers + 3; i++) await Bun.sleep(5)
    const second = compare(served)
    expect(second.inMemory).toBe(true)
    expect(second.callers).toBe(first.callers + 4)
    expect(callerChangesReadOnRequest()).toBe(readOnRequest)
    // a lookup taken in the first sync's snapshot still gives that snapshot's totals
    for (const { mobile, total } of totalsBefore) expect(lookupBefore(mobile)).toBe(total)
    closeStore(served)
    closeStore(writer)
  })

  test("a run's changed callers are read from one range of the log's key, in run order", () => {
    const db = openStore(':memory:')
    const plan = db.$client.query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${CHANGED_SINCE_SQL.replace('?', '0')}`).all().map((r) => r.detail)
    expect(plan).toEqual(['SEARCH caller_changes USING PRIMARY KEY (seq>?)'])
    closeStore(db)
  })

  test("a base older than the log's week: every total still right, by seeks while every caller is read again", async () => {
    const { writer, served } = await servedDemoStore()
    const head = () => readSnapshot(served, () => served.$client.query<{ seq: number }, []>('SELECT max(seq) AS seq FROM feed_syncs').get()!.seq)
    const logged = () => writer.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM caller_changes').get()!.n
    // a run now, then one eight days on, which lets the first run's entries go: both commit before
    // the served connection's watcher looks, so it never took the first in on top of its base
    applyChanges(writer, { calls: [call('W-1', '+91 9444000001', '2025-06-30 20:00:00')] })
    const first = writer.$client.query<{ seq: number }, []>('SELECT max(seq) AS seq FROM feed_syncs').get()!.seq
    expect(logged()).toBe(1)
    const weekOn = new Date((first + 8 * 86_400) * 1000).toISOString().slice(0, 19).replace('T', ' ')
    applyChanges(writer, { calls: [call('W-2', '+91 9444000002', '2025-06-30 21:00:00')] }, weekOn)
    expect(logged()).toBe(1) // the second run's caller alone
    // the log says it is complete only for the runs a week before the second on
    const from = writer.$client.query<{ value: string }, [string]>('SELECT value FROM meta WHERE key = ?').get(CALLER_CHANGES_FROM)!.value
    expect(CALLER_CHANGES_KEPT_SECONDS).toBeLessThan(8 * 86_400)
    expect(Number(from)).toBe(first + 8 * 86_400 - CALLER_CHANGES_KEPT_SECONDS)
    for (let i = 0; i < 200 && head() <= first; i++) await Bun.sleep(5)
    // the first run's caller is in neither the base nor the log: its total is sought, never the base's 0
    const firstCaller = writer.$client.query<{ mobile: number }, []>("SELECT mobile FROM calls WHERE call_log_id = 'W-1'").get()!.mobile
    expect(readSnapshot(served, () => callerTotals(served)(firstCaller))).toBe(1)
    compare(served)
    // and every caller is read again beside the requests, after which totals are in memory once more
    let inMemory = false
    for (let i = 0; i < 200 && !inMemory; i++) {
      await turn()
      inMemory = compare(served).inMemory
    }
    expect(inMemory).toBe(true)
    expect(readSnapshot(served, () => callerTotals(served)(firstCaller))).toBe(1)
    closeStore(served)
    closeStore(writer)
  })

  test('a full load over a served store: a caller it left out is found nowhere at once, not at the previous run\'s total', async () => {
    const { writer, served } = await servedDemoStore()
    const rows = () => readSnapshot(served, () => served.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM callers').get()!.n)
    const seeded = rows()
    // two syncs, each a call from a caller the fixtures do not have: taken in by the watcher, the second on top of the first
    applyChanges(writer, { calls: [call('X-1', '+91 9555000000', '2025-06-30 20:00:00')] })
    for (let i = 0; i < 200 && rows() === seeded; i++) await Bun.sleep(5)
    applyChanges(writer, { calls: [call('X-2', '+91 9555000000', '2025-06-30 21:00:00')] })
    const caller = writer.$client.query<{ mobile: number }, []>("SELECT mobile FROM calls WHERE call_log_id = 'X-1'").get()!.mobile
    const totalOf = () => readSnapshot(served, () => callerTotals(served)(caller))
    for (let i = 0; i < 200 && totalOf() !== 2; i++) await Bun.sleep(5)
    expect(totalOf()).toBe(2)
    // the fixtures loaded again from nothing: the caller is gone from the table, and from the lookup as soon as the connection moves
    seedDemo(writer)
    for (let i = 0; i < 200 && rows() !== seeded; i++) await Bun.sleep(5)
    expect(rows()).toBe(seeded)
    expect(totalOf()).toBe(0)
    compare(served)
    closeStore(served)
    closeStore(writer)
  })

  test('a store in memory reads its base at once, in the request\'s own snapshot', () => {
    const db = openStore(':memory:')
    seedDemo(db)
    compare(db)
    expect(compare(db).inMemory).toBe(true)
  })

  // the base's layout (buckets of consecutive numbers, the callers in blocks, a word a caller with
  // its total in 16 bits or kept aside): numbers at its edges, a crowded bucket, the blocks' seams,
  // totals at and past 16 bits, and none at all
  const SMALL_TOTALS = (i: number) => 1 + (i % 977)
  const layouts: [string, number[], ((i: number) => number)?][] = [
    ['no callers', []],
    ['one caller', [19_876_543_210]],
    ['a caller with no digits and the largest number', [1, 19_999_999_999]],
    ['70,000 consecutive numbers (crowded buckets, two blocks) and callers far from them', [
      ...Array.from({ length: 70_000 }, (_, i) => 16_000_000_000 + i), 10_000_000_000, 12_345_678_901, 19_999_999_998,
    ]],
    ['callers spread over every digit, at powers of two from the first', [
      ...Array.from({ length: 40_000 }, (_, i) => 10_000_000_000 + i * 249_989),
      ...Array.from({ length: 30 }, (_, i) => 10_000_000_000 + 2 ** i), 10_000_000_000 + 2 ** 32, 10_000_000_000 + 2 ** 33 + 1,
    ]],
    ['totals of 16 bits and more, beside small ones in the same buckets', [
      ...Array.from({ length: 3_000 }, (_, i) => 15_000_000_000 + i * 7), 10_000_000_000, 19_999_999_999,
    ], (i) => [65_534, 65_535, 65_536, 1, 1_000_000, 2_147_483_647, 977, 131_071][i % 8]],
  ]
  for (const [name, numbers, totalAt = SMALL_TOTALS] of layouts) {
    test(`a base of ${name}: every caller's total, and 0 for every other number`, () => {
      const db = openStore(':memory:')
      const truth = new Map<number, number>()
      const insert = db.$client.query('INSERT INTO callers (mobile, total) VALUES (?, ?)')
      db.$client.transaction(() => {
        for (const [i, mobile] of numbers.entries()) if (!truth.has(mobile)) {
          truth.set(mobile, totalAt(i))
          insert.run(mobile, truth.get(mobile)!)
        }
      })()
      readSnapshot(db, () => {
        const totalOf = callerTotals(db)
        expect(callerTotalsInMemory(db)).toBe(true)
        for (const [mobile, total] of truth) expect(totalOf(mobile)).toBe(total)
        const others = [0, 1, 2, 9_999_999_999, 10_000_000_000, 19_999_999_999, 20_000_000_000, 99_999_999_999, 1.5, -1, Number.NaN]
        for (const mobile of truth.keys()) others.push(mobile - 1, mobile + 1, mobile + 65_536, mobile - 2 ** 20)
        for (const mobile of others) if (!truth.has(mobile)) expect(totalOf(mobile)).toBe(0)
      })
      closeStore(db)
    })
  }
})

