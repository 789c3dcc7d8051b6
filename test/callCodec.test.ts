// How a call is stored (src/store/callCodec.ts): every value reads back exactly
// as the master wrote it, in JavaScript and in the SQL of the readable view and
// of migration 0007, which converts stores made by earlier versions.
import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { migrations } from '../src/store/migrations'
import { metricTotalsOf } from '../src/store/listingFigures'
import type { Store } from '../src/store/open'
import { callValues, dayNumber, dayText, STORED_CALL_COLUMNS, mobileDigits, mobileKey, mobileKeyOf, mobileOf, mobileOfCall, secondsOf, storedAfter, storedSubstatus, substatusOf, timeAfter, timeOf, timeText, TimeTexts } from '../src/store/callCodec'
import type { CallRow } from '../src/store/rows'
import { CallTextIds } from '../src/store/callTexts'

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

describe('times', () => {
  test('every second of a day and every day of 1999 to 2101 read back as written, in order', () => {
    let last = -Infinity
    for (let y = 1999; y <= 2101; y++) {
      for (let m = 1; m <= 12; m++) {
        const days = new Date(Date.UTC(y, m, 0)).getUTCDate()
        for (let d = 1; d <= days; d++) {
          const text = `${y}-${pad(m)}-${pad(d)} 07:08:09`
          const s = secondsOf(text)!
          expect(s).toBe(Date.UTC(y, m - 1, d, 7, 8, 9) / 1000)
          expect(timeText(s)).toBe(text)
          expect(s).toBeGreaterThan(last)
          last = s
        }
      }
    }
    for (let s = 0; s < 86_400; s += 7) {
      const text = `2024-02-29 ${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`
      expect(timeText(secondsOf(text)!)).toBe(text)
    }
  })

  test('times in no order of their days (the change feed) read back as written, days that share a remembered slot too', () => {
    const day = 86_400
    const base = secondsOf('2026-11-27 10:11:12')!
    // 4,096 days apart share a slot of the days' texts; 1 and 8,191 days apart do not
    const times = [0, 4096, -4096, 0, 8192, 1, 4097, 8191, -1, 0].map((n) => base + n * day)
    for (let i = 0; i < 2000; i++) times.push(base + Math.floor(((i * 7919) % 20_011) - 10_000) * day + ((i * 104_729) % day))
    for (const s of times) {
      const d = new Date(s * 1000)
      const text = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
      expect({ s, text: timeText(s) }).toEqual({ s, text })
      expect({ s, day: dayText(s) }).toEqual({ s, day: text.slice(0, 10) })
    }
  })

  test('the ends of the DATETIME range and years before 1970 read back too', () => {
    for (const text of ['0001-01-01 00:00:00', '1000-01-01 00:00:00', '1969-12-31 23:59:59', '1970-01-01 00:00:00', '1900-02-28 12:00:00', '9999-12-31 23:59:59']) {
      expect(timeText(secondsOf(text)!)).toBe(text)
    }
  })

  test("a page's times written together (TimeTexts) are timeText's, in the order added, however many", () => {
    const times = new TimeTexts()
    const ends = ['0001-01-01 00:00:00', '1969-12-31 23:59:59', '1970-01-01 00:00:00', '2024-02-29 23:59:59', '9999-12-31 23:59:59'].map((t) => secondsOf(t)!)
    // a page's worth, then more than its first buffer holds, then one after a page that never took its texts
    for (const count of [5, 75, 1500, 1]) {
      times.begin()
      const seconds = Array.from({ length: count }, (_, i) => (i < ends.length ? ends[i] : secondsOf('2025-01-15 00:00:00')! + ((i * 104_729) % (800 * 86_400)) - 400 * 86_400))
      for (const s of seconds) times.add(s)
      times.cut()
      const texts = seconds.map(() => times.take())
      expect(texts).toEqual(seconds.map(timeText))
      expect(texts.every((t) => t.length === 19)).toBe(true)
      times.add(ends[0]) // a page that fails after adding its times
    }
    times.begin()
    times.cut()
    expect(times.take()).toEqual('')
  })

  test("a day's number is its days since 1970, from year 0001 to 9999 and across every leap day", () => {
    const days = ['0001-01-01', '1600-02-29', '1899-12-31', '1900-03-01', '1969-12-31', '1970-01-01', '2000-02-29', '2024-02-29', '2024-03-01', '2026-11-01', '2100-02-28', '2100-03-01', '9999-12-31']
    for (let y = 1999; y <= 2101; y++) for (let m = 1; m <= 12; m++) days.push(`${y}-${pad(m)}-01`, `${y}-${pad(m)}-${pad(new Date(Date.UTC(y, m, 0)).getUTCDate())}`)
    for (const day of days) expect({ day, n: dayNumber(day) }).toEqual({ day, n: Date.parse(`${day}T00:00:00Z`) / 86_400_000 })
  })

  test('what is no real time is kept as its text', () => {
    for (const text of ['0000-00-00 00:00:00', '2025-02-29 10:00:00', '2100-02-29 10:00:00', '2025-13-01 10:00:00', '2025-04-31 10:00:00', '2025-01-01 24:00:00',
      '2025-01-01 10:60:00', '2025-01-01 10:00:60', '2025-01-01T10:00:00', '2025-01-01 10:00', '2025-01-01 10:00:00.5', ' 2025-01-01 10:00:00', '']) {
      expect(secondsOf(text)).toBeNull()
      expect(timeOf(text)).toBe(text)
    }
  })

  test('created_at and crm_synced_at are kept after the start, and read back as written', () => {
    const start = secondsOf('2025-03-01 10:00:00')!
    expect(storedAfter('2025-03-01 10:00:00', start)).toBe(0)
    expect(storedAfter('2025-03-01 09:59:00', start)).toBe(-60)
    expect(timeAfter(storedAfter('2025-03-02 11:30:05', start), start)).toBe('2025-03-02 11:30:05')
    expect(storedAfter(null, start)).toBeNull()
    expect(timeAfter(null, start)).toBeNull()
    // either not a time: the text itself
    expect(storedAfter('0000-00-00 00:00:00', start)).toBe('0000-00-00 00:00:00')
    expect(storedAfter('2025-03-01 10:00:00', '0000-00-00 00:00:00')).toBe('2025-03-01 10:00:00')
    expect(timeAfter('2025-03-01 10:00:00', '0000-00-00 00:00:00')).toBe('2025-03-01 10:00:00')
  })
})

describe('substatus and mobile', () => {
  test('the three substatuses are 1, 2 and 3; anything else stays text', () => {
    expect(['Answered', 'Missed', 'Offline'].map(storedSubstatus)).toEqual([1, 2, 3])
    for (const s of ['Answered', 'Missed', 'Offline', '', 'answered', 'Busy']) expect(substatusOf(storedSubstatus(s))).toBe(s)
    // names an object has from its prototype are texts like any other, not codes
    for (const s of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(storedSubstatus(s)).toBe(s)
  })

  test('a mobile keeps its leading zeros and its length', () => {
    for (const mobile of ['7000000001', '0012345678', '0000000000', '12345', '0012345', '0', '']) {
      expect(mobileDigits(mobileKey(mobile))).toBe(mobile)
    }
    expect(mobileKey('12345')).not.toBe(mobileKey('0012345'))
    expect(mobileOf('+91 (700) 000-0001')).toBe('7000000001')
  })

  test("a call's mobile read from its caller number is the stored mobile's digits", () => {
    const numbers = ['+919876543210', '9876543210', '09876543210', '+91 98765 43210', '+91-98765-4321O', '98765 43210', '+91 (700) 000-0001',
      '12345', '0012345', '', 'abcdefghij', '1234567890x', 'x1234567890', '+44 20 7946 0958', '٩٨٧٦٥٤٣٢١٠', '+91987654321０', '98765:43210', '98765/43210', '+9198765432:0', '/9876543210']
    for (let i = 0; i < 500; i++) numbers.push(`+${i % 7}${String(i * 7_919_333).padStart(11 + (i % 3), '0')}${i % 5 === 0 ? ' ' : ''}`)
    for (const n of numbers) expect(mobileOfCall(n, mobileKey(mobileOf(n)))).toBe(mobileOf(n))
    // the stored mobile made in one pass is the contract's: the last ten digits after a 1
    for (const n of [...numbers, '1', '0', '00000000000', '99999999999', '+91 0000000000', '123456789012345678901234567890']) {
      expect([n, mobileKeyOf(n)]).toEqual([n, mobileKey(mobileOf(n))])
    }
    // the caller number's own digits are taken only when they are the mobile's: otherwise the stored one
    expect(mobileOfCall('+91 98765 43210', mobileKey('9876543210'))).toBe('9876543210')
    expect(mobileOfCall('12345', mobileKey('12345'))).toBe('12345')
  })
})

describe('migrations 0007 and 0010 on a store made by an earlier version', () => {
  test('converts every call as the code stores it, and the readable view gives back what was there', () => {
    // a store at migration 0006, as the last version left it
    const client = new Database(':memory:')
    const db = drizzle({ client }) as unknown as Store
    const upTo = (n: number) => (db as any).dialect.migrate(migrations.slice(0, n), (db as any).session, { migrationsFolder: '' })
    upTo(7)
    client.run("INSERT INTO stores (website_id, sap_code, is_deleted, visible, dealership_name) VALUES (1, 'S1', 0, 1, 'One'), (2, 'S2', 1, 0, 'Two')")
    const times = ['2025-03-01 10:00:00', '1999-12-31 23:59:59', '0000-00-00 00:00:00', '2025-02-29 10:00:00', '2025-01-01T10:00:00', '0001-01-01 00:00:00', '9999-12-31 23:59:59', '1969-07-20 20:17:40']
    const old: CallRow[] = []
    times.forEach((t, i) =>
      times.forEach((c, j) =>
        old.push({
          call_log_id: `C${i}-${j}`, website_id: (i + j) % 3, call_start_time: t, caller_number: `+91 00${i}${j}-1`, duration_seconds: i * j, did_number: `+91 80400 0000${i % 3}`, event_type: ['MISSED', 'ANSWERED', 'missed'][j % 3],
          substatus: ['Answered', 'Missed', 'Offline', ''][j % 4], recording_url: j % 2 ? null : ' ', crm_lead_id: i % 2 ? null : 'L', crm_synced_at: i % 2 ? null : c, created_at: c,
        }),
      ),
    )
    const insert = client.query(`INSERT INTO calls (website_id, call_start_time, call_log_id, caller_number, duration_seconds, did_number, event_type, substatus,
      recording_url, crm_lead_id, crm_synced_at, created_at, mobile, prev_calls_count, feed_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 7)`)
    for (const r of old) {
      insert.run(r.website_id ?? 0, r.call_start_time, r.call_log_id, r.caller_number, r.duration_seconds, r.did_number, r.event_type, r.substatus, r.recording_url, r.crm_lead_id, r.crm_synced_at, r.created_at, mobileOf(r.caller_number))
    }
    const metric = client.query(`INSERT INTO metrics (website_id, metric_date, desktop_search_impressions, mobile_search_impressions, desktop_maps_impressions,
      mobile_maps_impressions, website_clicks, call_clicks, direction_requests, business_bookings, seq, cum_search) VALUES (?, ?, 1, 2, 3, 4, 5, 6, 7, 8, ?, ?)`)
    const days = ['1969-12-31', '1970-01-01', '2025-03-01', '2024-02-29', '9999-12-31', '0001-01-01']
    const rank = (d: string) => [...days].sort().indexOf(d) + 1 // seq and running totals as sync derives them: in date order
    days.forEach((d) => metric.run(1, d, rank(d), rank(d) * 10))
    metric.run(4_294_967_295, '2025-03-01', 1, 10) // the largest store id INT UNSIGNED allows
    upTo(8)
    // listing rows keep their fields and sort by store, then day, under one integer key
    expect(client.query('SELECT website_id, metric_date, seq, cum_search FROM metrics ORDER BY k').all()).toEqual([
      ...[...days].sort().map((d) => ({ website_id: 1, metric_date: d, seq: rank(d), cum_search: rank(d) * 10 })),
      { website_id: 4_294_967_295, metric_date: '2025-03-01', seq: 1, cum_search: 10 },
    ])
    // and a request, on the store migrated to the latest (0008 indexes these rows by day), finds
    // them by store and day, the largest store id too
    upTo(migrations.length)
    expect(metricTotalsOf(db, [1, 4_294_967_295, 2], '2024-01-01', '2025-12-31').map((t) => [t.days, t.totals.total_search])).toEqual([[2, 20], [1, 10], [0, 0]])
    const stored = client.query(`SELECT ${STORED_CALL_COLUMNS.join(', ')} FROM calls WHERE call_log_id = ?`)
    const readable = client.query(`SELECT call_start_time, website_id, caller_number, did_number, event_type, substatus, recording_url, crm_lead_id, crm_synced_at, created_at, mobile, visible, feed_seq
      FROM calls_readable WHERE call_log_id = ?`)
    // 0010: each text once in call_texts, the calls holding its id
    expect(client.query('SELECT count(*) AS n FROM call_texts').get()).toEqual({ n: 6 })
    const texts = new CallTextIds(client)
    for (const r of old) {
      expect(stored.values(r.call_log_id)[0]).toEqual(callValues(r, texts))
      expect(readable.get(r.call_log_id)).toEqual({
        call_start_time: r.call_start_time, website_id: r.website_id, caller_number: r.caller_number, did_number: r.did_number, event_type: r.event_type, substatus: r.substatus, recording_url: r.recording_url,
        crm_lead_id: r.crm_lead_id, crm_synced_at: r.crm_synced_at, created_at: r.created_at, mobile: mobileOf(r.caller_number), visible: r.website_id === 1 ? 1 : 0, feed_seq: 7,
      })
    }
    // in time order, a start that is no time after every real one
    const order = client.query('SELECT call_log_id FROM calls ORDER BY start, call_log_id').all().map((x: any) => x.call_log_id)
    const expected = [...old].sort((a, b) => {
      const [sa, sb] = [secondsOf(a.call_start_time), secondsOf(b.call_start_time)]
      if (sa !== sb) return sa === null ? 1 : sb === null ? -1 : sa - sb
      return a.call_start_time < b.call_start_time ? -1 : a.call_start_time > b.call_start_time ? 1 : a.call_log_id < b.call_log_id ? -1 : 1
    })
    expect(order).toEqual(expected.map((r) => r.call_log_id))
  })
})
