// call_minutes held in memory (src/store/minuteTotals.ts): every total and
// every page start the copy gives equals a plain scan of the table's rows, over
// spreads that cross its blocks and its one-byte counts; and a file store reads
// the table until the copy of its snapshot's run is ready.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedDemo } from '../db/fixtures/demo'
import type { CallClass, Counts } from '../src/store/callClasses'
import { countOf } from '../src/store/callClasses'
import { callHistoryPage } from '../src/store/calls'
import { minutesInMemory, minutesRead, minuteTotals, type MinuteTotals } from '../src/store/minuteTotals'
import { closeStore, openStore, type Store } from '../src/store/open'
import { readSnapshot } from '../src/store/snapshot'

type Row = { minute: number; answered: number; missed: number; offline: number }
const CLASSES: CallClass[] = ['all', 'answered', 'missed', 'offline', 'missedOffline']

const rand = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)

/** Rows of call_minutes: the minutes with calls, in order. */
const SPREADS: Record<string, Row[]> = (() => {
  const r = rand(11)
  const rows = (minutes: number[], count: (i: number) => [number, number, number]) =>
    minutes.map((minute, i) => ({ minute, answered: count(i)[0], missed: count(i)[1], offline: count(i)[2] }))
  const range = (n: number, from = 29_000_000) => Array.from({ length: n }, (_, i) => from + i)
  return {
    'every minute, a few calls each, across many blocks': rows(range(1000), () => [Math.floor(r() * 5), Math.floor(r() * 3), Math.floor(r() * 2)]),
    'minutes with gaps, some of one class only': rows(range(700).filter(() => r() < 0.5), (i) => (i % 5 === 0 ? [0, 0, 1 + (i % 3)] : [1 + (i % 4), i % 2, 0])),
    // counts past a byte: 255 and more are kept beside the bytes
    'crowded minutes past 254 calls': rows(range(300), (i) => (i % 17 === 0 ? [254 + (i % 3), 300 + i, 255] : [1, 0, 2])),
    'exactly one block, then one row more': rows(range(65), () => [2, 1, 1]),
    'exactly two blocks': rows(range(128), (i) => [i % 3, 1, 0]),
    // a call dated decades off: one row, not the minutes between
    'one minute decades before the rest': rows([1_000, ...range(200)], () => [3, 2, 1]),
    'a single minute': rows([29_000_123], () => [4, 0, 2]),
    // DATETIME's last minute with calls of today: 7,974 years apart, within the copy's 32 bits
    'calls of today and of 9999-12-31': rows([...range(100), minuteAt('9999-12-31 23:59:00')], (i) => [1 + (i % 2), 1, i % 3]),
  }
})()

/** Minutes since 1970 of a time (UTC). */
function minuteAt(time: string): number {
  return Date.parse(`${time.replace(' ', 'T')}Z`) / 60_000
}

/** A store in memory holding only these rows of call_minutes (their running totals filled in). */
function storeOf(rows: Row[]): Store {
  const db = openStore(':memory:')
  const insert = db.$client.query(`INSERT INTO call_minutes (minute, answered, missed, offline, cum_answered, cum_missed, cum_offline) VALUES (?, ?, ?, ?, ?, ?, ?)`)
  const cum = [0, 0, 0]
  for (const r of rows) {
    cum[0] += r.answered
    cum[1] += r.missed
    cum[2] += r.offline
    insert.run(r.minute, r.answered, r.missed, r.offline, cum[0], cum[1], cum[2])
  }
  return db
}

/** Calls through a minute by a plain scan of the rows. */
function throughByScan(rows: Row[], minute: number): Counts {
  const c = { answered: 0, missed: 0, offline: 0, secAnswered: 0, secMissed: 0, secOffline: 0 }
  for (const r of rows) {
    if (r.minute > minute) break
    c.answered += r.answered
    c.missed += r.missed
    c.offline += r.offline
  }
  return c
}

/**
 * Every page start of a range by one plain walk of the rows: for each target from
 * `below` to `above`, the first minute in [from, to] through which the class passes
 * it, and the class's calls before that minute (targets rise, so each starts where
 * the last was found).
 */
function passingsByScan(rows: Row[], from: number, to: number, cls: CallClass, below: number, above: number) {
  const n = (r: Row) => countOf({ ...r, secAnswered: 0, secMissed: 0, secOffline: 0 }, cls)
  const out: ({ minute: number; skipped: number } | null)[] = []
  let total = 0
  let i = 0
  for (let target = below; target <= above; target++) {
    while (i < rows.length && rows[i].minute <= to && !(rows[i].minute >= from && total + n(rows[i]) > target)) total += n(rows[i++])
    out.push(i < rows.length && rows[i].minute <= to ? { minute: rows[i].minute, skipped: total } : null)
  }
  return out
}

const copyOf = (db: Store): MinuteTotals => readSnapshot(db, () => minuteTotals(db))!

describe('call_minutes in memory', () => {
  for (const [name, rows] of Object.entries(SPREADS)) {
    test(`${name}: every total and page start equals a scan of the rows`, () => {
      const db = storeOf(rows)
      const copy = copyOf(db)
      const minutes = rows.map((r) => r.minute)
      const points = [...new Set([minutes[0] - 1, ...minutes, ...minutes.map((m) => m + 1), minutes.at(-1)! + 100, 0])]
      for (const m of points) expect(copy.through(m)).toEqual(throughByScan(rows, m))
      // ranges: the whole, a middle, from before the first row, and one of a single row
      const a = minutes[Math.floor(minutes.length / 3)]
      const b = minutes[Math.floor((2 * minutes.length) / 3)]
      const ranges: [number, number][] = [[minutes[0], minutes.at(-1)!], [a, b], [minutes[0] - 50, a], [b, b], [a + 1, b - 1]]
      let pages = 0
      for (const cls of CLASSES) {
        for (const [from, to] of ranges) {
          const below = countOf(throughByScan(rows, from - 1), cls)
          const above = countOf(throughByScan(rows, to), cls)
          // every target a page of this range can start at, and the first past its end
          const expected = passingsByScan(rows, from, to, cls, below, above)
          for (let target = below; target <= above; target++) {
            expect(copy.passing(from, to, target, cls)).toEqual(expected[target - below])
            pages++
          }
        }
      }
      expect(pages).toBeGreaterThan(50)
      closeStore(db)
    })
  }

  test('more rows than one chunk of the copy (65,536): totals and page starts across the chunks', () => {
    const r = rand(23)
    const CHUNK = 65_536
    // crowded minutes (255 and more) at the rows either side of each chunk's edge
    const edges = new Set([CHUNK - 1, CHUNK, 2 * CHUNK - 1, 2 * CHUNK])
    const rows: Row[] = Array.from({ length: 2 * CHUNK + 5_000 }, (_, i) => ({
      minute: 29_000_000 + i + Math.floor(i / 7),
      answered: edges.has(i) ? 300 + i % 5 : Math.floor(r() * 4),
      missed: edges.has(i) ? 255 : Math.floor(r() * 3),
      offline: Math.floor(r() * 2),
    }))
    const db = storeOf(rows)
    const copy = copyOf(db)
    const near = [...edges].flatMap((e) => [e - 2, e - 1, e, e + 1, e + 2])
    const points = [...near, ...Array.from({ length: 140 }, (_, k) => k * 997)].filter((i) => i < rows.length).flatMap((i) => [rows[i].minute, rows[i].minute + 1])
    for (const m of points) expect(copy.through(m)).toEqual(throughByScan(rows, m))
    // a range across both edges, from a minute between rows; every 29th target, and each within the crowded minutes
    const [from, to] = [rows[CHUNK - 900].minute - 1, rows[2 * CHUNK + 700].minute]
    let pages = 0
    for (const cls of CLASSES) {
      const below = countOf(throughByScan(rows, from - 1), cls)
      const above = countOf(throughByScan(rows, to), cls)
      const expected = passingsByScan(rows, from, to, cls, below, above)
      const crowded = near.map((i) => countOf(throughByScan(rows, rows[i].minute), cls) - 1)
      for (const target of [...Array.from({ length: Math.floor((above - below) / 29) + 1 }, (_, k) => below + 29 * k), ...crowded, above]) {
        expect(copy.passing(from, to, target, cls)).toEqual(expected[target - below])
        pages++
      }
    }
    expect(pages).toBeGreaterThan(5_000)
    closeStore(db)
  })

  test('an empty call_minutes: nothing through any minute, no page start', () => {
    const db = storeOf([])
    const copy = copyOf(db)
    expect(copy.through(29_000_000)).toEqual(throughByScan([], 0))
    for (const cls of CLASSES) expect(copy.passing(0, 40_000_000, 0, cls)).toBeNull()
    closeStore(db)
  })

  test('minutes further apart than 32 bits (DATETIME spans 9,000 years): no copy, the table is read', () => {
    const rows: Row[] = [minuteAt('1000-01-01 00:00:00'), minuteAt('2025-01-01 10:00:00'), minuteAt('9999-12-31 23:59:00')].map((minute) => ({ minute, answered: 1, missed: 1, offline: 0 }))
    expect(rows[2].minute - rows[0].minute).toBeGreaterThan(2 ** 32)
    const db = storeOf(rows)
    expect(readSnapshot(db, () => minuteTotals(db))).toBeNull()
    expect(readSnapshot(db, () => minutesInMemory(db))).toBe(false) // what /metrics says
    closeStore(db)
  })

  test('a store in memory reads its copy again when its data changes', () => {
    const rows = SPREADS['exactly two blocks']
    const db = storeOf(rows)
    expect(copyOf(db).through(rows.at(-1)!.minute).answered).toBe(throughByScan(rows, rows.at(-1)!.minute).answered)
    db.$client.run('UPDATE call_minutes SET answered = answered + 5 WHERE minute = ?', [rows[3].minute])
    expect(copyOf(db).through(rows.at(-1)!.minute).answered).toBe(throughByScan(rows, rows.at(-1)!.minute).answered + 5)
    closeStore(db)
  })

  test('a file store: the table until the copy of its run is read beside the requests; a newer run is read again', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    const rows = SPREADS['every minute, a few calls each, across many blocks']
    const writer = storeOfFile(path, rows, 1)
    const served = openStore(path, { migrate: false, serving: true })
    const last = rows.at(-1)!.minute
    const inMemory = () => readSnapshot(served, () => minutesInMemory(served)) // what /metrics says
    expect(inMemory()).toBe(false)
    await minutesRead(served)
    expect(inMemory()).toBe(false) // asking begins no read
    expect(readSnapshot(served, () => minuteTotals(served))).toBeNull() // a request begins it, and reads the table meanwhile
    expect(inMemory()).toBe(false)
    await minutesRead(served)
    expect(inMemory()).toBe(true)
    const first = readSnapshot(served, () => minuteTotals(served))!
    expect(first.head).toBe(1)
    expect(first.through(last)).toEqual(throughByScan(rows, last))
    // a later run: more calls in one minute
    writer.$client.transaction(() => {
      writer.$client.run('INSERT INTO feed_syncs (seq, master_now) VALUES (2, ?)', ['2025-01-02 00:00:00'])
      writer.$client.run('UPDATE call_minutes SET missed = missed + 7 WHERE minute = ?', [rows[10].minute])
    })()
    // the serving connection moves to the new run within a poll; its copy is then of an older run
    let moved: MinuteTotals | null = first
    for (let i = 0; i < 100 && moved !== null; i++) {
      await Bun.sleep(5)
      moved = readSnapshot(served, () => minuteTotals(served))
    }
    expect(moved).toBeNull() // not the old run's copy: the table is read until the new one is ready
    expect(inMemory()).toBe(false)
    await minutesRead(served)
    expect(inMemory()).toBe(true)
    const second = readSnapshot(served, () => minuteTotals(served))!
    expect(second.head).toBe(2)
    expect(second.through(last).missed).toBe(throughByScan(rows, last).missed + 7)
    closeStore(served)
    closeStore(writer)
  })

  test('call history across stores answers the same from the table and from the copy', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    const writer = openStore(path)
    seedDemo(writer)
    const served = openStore(path, { migrate: false, serving: true })
    const pagesOf = () =>
      readSnapshot(served, () =>
        CLASSES.flatMap((cls) =>
          [['2024-01-01', '2026-12-31'], ['2025-01-01', '2025-01-31'], ['2025-03-07', '2025-03-07']].flatMap(([from, to]) => {
            const range = { from, to, fromTime: `${from} 00:00:00`, toTime: `${to} 23:59:59` }
            return [0, 1, 7, 49, 50, 333].map((offset) => callHistoryPage(served, { kind: 'all' }, range, cls, null, { offset, limit: 50 }))
          }),
        ),
      )
    expect(readSnapshot(served, () => minuteTotals(served))).toBeNull()
    const fromTable = pagesOf()
    await minutesRead(served)
    expect(readSnapshot(served, () => minuteTotals(served))).not.toBeNull()
    const fromCopy = pagesOf()
    expect(fromCopy).toEqual(fromTable)
    // pages that hold calls, of every class, and totals past a page
    expect(fromTable.filter((p) => p.records.length > 0).length).toBeGreaterThan(60)
    expect(Math.max(...fromTable.map((p) => p.total))).toBeGreaterThan(333)
    closeStore(served)
    closeStore(writer)
  })
})

/** A file store holding these rows of call_minutes as of run `seq`. */
function storeOfFile(path: string, rows: Row[], seq: number): Store {
  const db = openStore(path)
  const memory = storeOf(rows)
  const copied = memory.$client.query<Row, []>('SELECT minute, answered, missed, offline FROM call_minutes ORDER BY minute').all()
  closeStore(memory)
  const insert = db.$client.query('INSERT INTO call_minutes (minute, answered, missed, offline) VALUES (?, ?, ?, ?)')
  db.$client.transaction(() => {
    db.$client.run('INSERT INTO feed_syncs (seq, master_now) VALUES (?, ?)', [seq, '2025-01-01 00:00:00'])
    for (const r of copied) insert.run(r.minute, r.answered, r.missed, r.offline)
  })()
  return db
}
