// Step 1 of listing performance: POST /listing/dealer and /listing/employee
// (spec 4.2, 4.3, decisions 16-19) against db/fixtures/test.ts.
import { describe, expect, test } from 'bun:test'
import { expectFailure, post, testApp, tokenFor } from './helpers'
import { TEST_DATA_AS_OF } from '../db/fixtures/test'
import { metricTotals, type MetricTotals } from '../src/store/listingFigures'
import { TOTAL_SEARCH_SQL } from '../src/store/fieldRules'
import { applyChanges } from '../src/store/load'
import type { Store } from '../src/store/open'
import { readSnapshot } from '../src/store/snapshot'

const t = testApp()
const JAN = { from_date: '2025-01-01', to_date: '2025-01-31' }
const ZERO = { total_search: 0, website_clicks: 0, call_clicks: 0, direction_requests: 0, business_bookings: 0 }

const fails = (path: string, body: unknown, code: number, message: string) => expectFailure(t, path, body, code, message)

// 101 has rows on 01-01 (n=1), 01-02 (2), 01-04 (4), 01-05 (5): total_search is 10n, clicks n+1, n+2, n+3, bookings n%2
const store101Jan = {
  storelookup: '',
  dealership_name: 'Alpha Tiles Andheri',
  city: 'Mumbai',
  state: 'Maharashtra',
  has_data: true,
  message: '',
  days_with_data: 4,
  totals: { total_search: 120, website_clicks: 16, call_clicks: 20, direction_requests: 24, business_bookings: 2 },
}

describe('dealer lookup', () => {
  const PATH = '/listing/dealer'

  test('returns every visible store of the dealer by website_id, with storelookup and range totals', async () => {
    const r = await post(t, PATH, { ...JAN, sap_code: 'D100' })
    expect(r.json).toEqual({
      code: 200,
      status: true,
      data_as_of: TEST_DATA_AS_OF,
      user: 'Acme Partner',
      sap_code: 'D100',
      from_date: '2025-01-01',
      to_date: '2025-01-31',
      returned: 2,
      message: '',
      data: [
        { ...store101Jan, storelookup: tokenFor(t, 101) },
        {
          storelookup: tokenFor(t, 102),
          dealership_name: 'Alpha Tiles', // store_name NULL falls back to the dealer name
          city: 'Pune',
          state: 'Maharashtra',
          has_data: true,
          message: '',
          days_with_data: 1,
          totals: { total_search: 100, website_clicks: 11, call_clicks: 12, direction_requests: 13, business_bookings: 0 },
        },
      ],
    })
  })

  test('totals cover only the days in the range', async () => {
    const r = await post(t, PATH, { from_date: '2025-01-02', to_date: '2025-01-04', sap_code: 'D100' })
    expect(r.json.data[0].days_with_data).toBe(2)
    expect(r.json.data[0].totals).toEqual({ total_search: 60, website_clicks: 8, call_clicks: 10, direction_requests: 12, business_bookings: 0 })
  })

  test('a store without listing rows in the range is included with has_data false', async () => {
    const r = await post(t, PATH, { from_date: '2025-01-03', to_date: '2025-01-03', sap_code: 'D100' })
    expect(r.json.returned).toBe(2)
    for (const entry of r.json.data) {
      expect(entry).toMatchObject({ has_data: false, message: 'No record found', days_with_data: 0, totals: ZERO })
    }
  })

  test('NULL city and state are "" in store entries; a blank dealer name gives the literal', async () => {
    const echo = await post(t, PATH, { ...JAN, sap_code: 'D500' })
    expect(echo.json.data[0]).toMatchObject({ dealership_name: 'Echo Showroom', city: '', state: '', has_data: false })
    const blank = await post(t, PATH, { from_date: '2025-02-01', to_date: '2025-02-28', sap_code: 'D200' })
    expect(blank.json.data[0]).toMatchObject({ dealership_name: 'Dealer Name Not Available', days_with_data: 1 })
  })

  test.each([
    ['unknown', 'D999'],
    ['inactive', 'D300'],
    ['active without stores', 'D400'],
  ])('a dealer %s is 200 with an empty list and No record found', async (_, sapCode) => {
    const r = await post(t, PATH, { ...JAN, sap_code: sapCode })
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ code: 200, status: true, returned: 0, message: 'No record found', data: [] })
  })

  test('the same store always yields the same storelookup; another integration gets another', async () => {
    const a = await post(t, PATH, { ...JAN, sap_code: 'D100' })
    const b = await post(t, PATH, { from_date: '2024-01-01', to_date: '2025-12-31', sap_code: 'D100' })
    expect(a.json.data[0].storelookup).toBe(b.json.data[0].storelookup)
    const beta = await post(t, PATH, { ...JAN, sap_code: 'D100' }, { 'x-api-key': 'test-key-beta' })
    expect(beta.json.user).toBe('Beta Partner')
    expect(beta.json.data[0].storelookup).not.toBe(a.json.data[0].storelookup)
    expect(a.json.data[0].storelookup).toMatch(/^[A-Za-z0-9_-]{1,256}$/)
  })

  test.each([
    [{ from_date: '2025-01-01', to_date: '2025-01-31' }, 'sap_code is required'],
    [{ ...JAN, sap_code: '' }, 'sap_code is required'],
    [{ ...JAN, sap_code: null }, 'sap_code is required'],
    [{ ...JAN, sap_code: 100 }, 'sap_code must be a string'],
    [{ ...JAN, sap_code: 'D'.repeat(21) }, 'sap_code is too long'],
    [{ sap_code: 'D100' }, 'from_date and to_date are required'],
    [{ sap_code: 'D100', from_date: '2025-01-01', to_date: '31-01-2025' }, 'Dates must be in YYYY-MM-DD format'],
    [{ sap_code: 'D100', from_date: '2025-04-31', to_date: '2025-05-01' }, 'Dates must be in YYYY-MM-DD format'],
    [{ sap_code: 'D100', from_date: '2025-02-01', to_date: '2025-01-01' }, 'from_date cannot be later than to_date'],
  ])('400 for %j: %s', async (body, message) => {
    await fails(PATH, body, 400, message)
  })

  test('missing dates are reported before a missing sap_code', async () => {
    await fails(PATH, {}, 400, 'from_date and to_date are required')
  })
})

describe('employee lookup', () => {
  const PATH = '/listing/employee'

  test('returns the employee, the stores of its dealers by sap_code then website_id, and grand totals', async () => {
    const r = await post(t, PATH, { from_date: '2025-01-01', to_date: '2025-02-28', emp_code: 'E1' })
    expect(r.status).toBe(200)
    const { data, ...rest } = r.json
    expect(rest).toEqual({
      code: 200,
      status: true,
      data_as_of: TEST_DATA_AS_OF,
      employee: { emp_code: 'E1', name: 'Asha Rao', sales_off: 'Mumbai', role: 'Area Manager' },
      from_date: '2025-01-01',
      to_date: '2025-02-28',
      returned: 3,
      message: '',
      // 101 (120, 16, 20, 24, 2) + 102 (100, 11, 12, 13, 0) + 201 (70, 8, 9, 10, 1)
      grand_totals: { total_search: 290, website_clicks: 35, call_clicks: 41, direction_requests: 47, business_bookings: 3 },
    })
    // D300 is inactive and D400 has no stores: neither contributes
    expect(data.map((d: any) => [d.sap_code, d.storelookup])).toEqual([
      ['D100', tokenFor(t, 101)],
      ['D100', tokenFor(t, 102)],
      ['D200', tokenFor(t, 201)],
    ])
    expect(data[0]).toEqual({ sap_code: 'D100', ...store101Jan, storelookup: tokenFor(t, 101) })
  })

  test('an employee with no stores is 200 with zeroed grand totals and No record found', async () => {
    const r = await post(t, PATH, { ...JAN, emp_code: 'E3' })
    expect(r.json).toMatchObject({ code: 200, status: true, returned: 0, message: 'No record found', grand_totals: ZERO, data: [] })
  })

  test.each([
    ['unknown', 'E9'],
    ['inactive', 'E2'],
    ['of another case', 'e1'],
  ])('404 Employee not found for an employee %s', async (_, empCode) => {
    await fails(PATH, { ...JAN, emp_code: empCode }, 404, 'Employee not found')
  })

  test.each([
    [JAN, 'emp_code is required'],
    [{ ...JAN, emp_code: '' }, 'emp_code is required'],
    [{ ...JAN, emp_code: ['E1'] }, 'emp_code must be a string'],
    [{ ...JAN, emp_code: 'E'.repeat(21) }, 'emp_code is too long'],
    [{ emp_code: 'E1', to_date: '2025-01-31' }, 'from_date and to_date are required'],
    [{ emp_code: 'E1', from_date: '2025-01-31', to_date: '2025-01-01' }, 'from_date cannot be later than to_date'],
  ])('400 for %j: %s', async (body, message) => {
    await fails(PATH, body, 400, message)
  })

  test('a field error (400) wins over an unknown employee (404)', async () => {
    await fails(PATH, { emp_code: 'E9', from_date: '2025-02-30', to_date: '2025-03-01' }, 400, 'Dates must be in YYYY-MM-DD format')
  })
})

describe('range totals', () => {
  // A store's latest running totals are held per data version, so a range that
  // ends on or after its last day costs one seek: every range must still add up
  // to the plain sums over its rows, and a later day must be seen at once.
  const plain = (db: Store, websiteId: number, from: string, to: string) => {
    const r = db.$client.query<{ days: number } & MetricTotals, [number, string, string]>(`SELECT count(*) AS days, coalesce(sum(${TOTAL_SEARCH_SQL}), 0) AS total_search,
      coalesce(sum(website_clicks), 0) AS website_clicks, coalesce(sum(call_clicks), 0) AS call_clicks,
      coalesce(sum(direction_requests), 0) AS direction_requests, coalesce(sum(business_bookings), 0) AS business_bookings
      FROM metrics WHERE website_id = ? AND metric_date >= ? AND metric_date <= ?`).get(websiteId, from, to)!
    const { days, ...totals } = r
    return { days, totals }
  }
  const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)
  const everyRange = (db: Store, websiteId: number) => {
    const dates = (db.$client.query<{ d: string }, [number]>('SELECT metric_date AS d FROM metrics WHERE website_id = ?').all(websiteId)).map((r) => r.d)
    const days = [...new Set(dates.flatMap((d) => [shift(d, -1), d, shift(d, 1)]).concat(['2000-01-01', '2099-12-31']))].sort()
    let ranges = 0
    for (const from of days) {
      for (const to of days.filter((d) => d >= from)) {
        expect({ from, to, ...metricTotals(db, websiteId, from, to) }).toEqual({ from, to, ...plain(db, websiteId, from, to) })
        ranges++
      }
    }
    return ranges
  }
  const day = (metric_date: string, n: number) => ({ website_id: 101, metric_date, desktop_search_impressions: n, mobile_search_impressions: 2 * n, desktop_maps_impressions: 3, mobile_maps_impressions: 4,
    website_clicks: n, call_clicks: n + 1, direction_requests: n + 2, business_bookings: 1 })

  test('every range of a store adds up to its rows, before and after a later day and an earlier one arrive', () => {
    const u = testApp()
    readSnapshot(u.db, () => expect(everyRange(u.db, 101)).toBeGreaterThan(40))
    // 102's one row shares its day (01-02) with one of 101's: the day-major look-up (metrics_day)
    // must take the store's own row of a day, and from 01-04 on 101 has no row the day before
    readSnapshot(u.db, () => expect(everyRange(u.db, 102)).toBeGreaterThan(5))
    applyChanges(u.db, { metrics: [day('2025-02-10', 7)] })
    readSnapshot(u.db, () => {
      expect(metricTotals(u.db, 101, '2025-02-10', '2025-02-10')).toEqual({ days: 1, totals: { total_search: 28, website_clicks: 7, call_clicks: 8, direction_requests: 9, business_bookings: 1 } })
      everyRange(u.db, 101)
    })
    applyChanges(u.db, { metrics: [day('2024-12-30', 3)] })
    readSnapshot(u.db, () => everyRange(u.db, 101))
    // a store without listing rows: zeros for every range
    readSnapshot(u.db, () => expect(metricTotals(u.db, 999_999, '2000-01-01', '2099-12-31')).toEqual({ days: 0, totals: ZERO }))
  })
})
