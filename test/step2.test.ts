// Step 2 of listing performance: POST /listing/daywise and /listing/calls
// (spec 4.4-4.6, decisions 20-23) against db/fixtures/test.ts.
import { describe, expect, test } from 'bun:test'
import { expectFailure, post, testApp, tokenFor } from './helpers'
import { TEST_DATA_AS_OF } from '../db/fixtures/test'

const t = testApp()
const JAN = { from_date: '2025-01-01', to_date: '2025-01-31' }
const ZERO = { total_search: 0, website_clicks: 0, call_clicks: 0, direction_requests: 0, business_bookings: 0 }

const fails = (path: string, body: unknown, code: number, message: string) => expectFailure(t, path, body, code, message)

const dealer101 = (storelookup: string) => ({
  storelookup,
  sap_code: 'D100',
  dealership_name: 'Alpha Tiles Andheri',
  city: 'Mumbai',
  state: 'Maharashtra',
})

describe('day-wise', () => {
  const PATH = '/listing/daywise'

  test('one row per day with figures, ascending; totals over the whole range', async () => {
    const token = tokenFor(t, 101)
    const r = await post(t, PATH, { ...JAN, storelookup: token, limit: 2 })
    expect(r.json).toEqual({
      code: 200,
      status: true,
      data_as_of: TEST_DATA_AS_OF,
      message: '',
      dealer: dealer101(token),
      page: 1,
      limit: 2,
      returned: 2,
      total: 4,
      total_pages: 2,
      has_more: true,
      totals: { total_search: 120, website_clicks: 16, call_clicks: 20, direction_requests: 24, business_bookings: 2 },
      data: [
        {
          performance_date: '2025-01-01',
          total_search: 10,
          website_clicks: 2,
          call_clicks: 3,
          direction_requests: 4,
          business_bookings: 1,
          desktop_search_impressions: 1,
          mobile_search_impressions: 2,
          desktop_maps_impressions: 3,
          mobile_maps_impressions: 4,
        },
        {
          performance_date: '2025-01-02',
          total_search: 20,
          website_clicks: 3,
          call_clicks: 4,
          direction_requests: 5,
          business_bookings: 0,
          desktop_search_impressions: 2,
          mobile_search_impressions: 4,
          desktop_maps_impressions: 6,
          mobile_maps_impressions: 8,
        },
      ],
    })
    const page2 = await post(t, PATH, { ...JAN, storelookup: token, limit: 2, page: 2 })
    expect(page2.json.data.map((d: any) => d.performance_date)).toEqual(['2025-01-04', '2025-01-05'])
    expect(page2.json.has_more).toBe(false)
    expect(page2.json.totals).toEqual(r.json.totals)
  })

  test('a page past the end is 200 with empty data (decision 8)', async () => {
    const r = await post(t, PATH, { ...JAN, storelookup: tokenFor(t, 101), page: 3, limit: 2 })
    expect(r.json).toMatchObject({ code: 200, page: 3, returned: 0, total: 4, total_pages: 2, has_more: false, data: [] })
  })

  test('limit defaults to 31 and is clamped to 366', async () => {
    expect((await post(t, PATH, { ...JAN, storelookup: tokenFor(t, 101) })).json.limit).toBe(31)
    expect((await post(t, PATH, { ...JAN, storelookup: tokenFor(t, 101), limit: 1000 })).json.limit).toBe(366)
  })

  test('a store without figures in the range is 200 No record found with zeroed totals', async () => {
    const token = tokenFor(t, 501)
    const r = await post(t, PATH, { ...JAN, storelookup: token })
    expect(r.json).toEqual({
      code: 200,
      status: true,
      data_as_of: TEST_DATA_AS_OF,
      message: 'No record found',
      dealer: { storelookup: token, sap_code: 'D500', dealership_name: 'Echo Showroom', city: '', state: '' },
      page: 1,
      limit: 31,
      returned: 0,
      total: 0,
      total_pages: 0,
      has_more: false,
      totals: ZERO,
      data: [],
    })
  })

  test.each([
    [JAN, 'storelookup is required'],
    [{ ...JAN, storelookup: '' }, 'storelookup is required'],
    [{ ...JAN, storelookup: null }, 'storelookup is required'],
    [{ ...JAN, storelookup: 12 }, 'storelookup must be a string'],
    [{ ...JAN, storelookup: 'x'.repeat(513) }, 'Invalid storelookup'],
    [{ ...JAN, storelookup: 'AX9-PibkpXVM8XOJjF8wW1KQOv83' }, 'Invalid storelookup'],
    [{ to_date: '2025-01-31', storelookup: 'abc' }, 'from_date and to_date are required'],
    [{ from_date: '2025-01-31', to_date: '2025-01-01', storelookup: 'abc' }, 'from_date cannot be later than to_date'],
    [{ from_date: '2025-01-01', to_date: '2025-01-32', storelookup: 'abc' }, 'Dates must be in YYYY-MM-DD format'],
  ])('400 for %j: %s', async (body, message) => {
    await fails(PATH, body, 400, message)
  })

  test('a storelookup edited, truncated, padded or from another integration is refused, never another store', async () => {
    const token = tokenFor(t, 101)
    const edited = token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11)
    for (const bad of [edited, token.slice(0, -1), `${token}A`, ` ${token}`, `${token}=`, encodeURIComponent(token + '+'), tokenFor(t, 101, 2)]) {
      await fails(PATH, { ...JAN, storelookup: bad }, 400, 'Invalid storelookup')
    }
  })

  test('a storelookup of a store that is no longer visible is refused', async () => {
    const t2 = testApp()
    const token = tokenFor(t2, 102)
    expect((await post(t2, PATH, { ...JAN, storelookup: token })).status).toBe(200)
    t2.db.$client.run("UPDATE stores SET visible = 0 WHERE website_id = 102")
    const r = await post(t2, PATH, { ...JAN, storelookup: token })
    expect(r.json).toEqual({ code: 400, status: false, message: 'Invalid storelookup' })
  })
})

describe('call log', () => {
  const PATH = '/listing/calls'

  test('the store\'s calls oldest first with the summary of the whole range', async () => {
    const token = tokenFor(t, 101)
    const r = await post(t, PATH, { ...JAN, storelookup: token, limit: 2 })
    expect(r.json).toEqual({
      code: 200,
      status: true,
      data_as_of: TEST_DATA_AS_OF,
      message: '',
      dealer: dealer101(token),
      page: 1,
      limit: 2,
      returned: 2,
      total: 5,
      total_pages: 3,
      has_more: true,
      // 42 + 0 + 50 + 50 + 125 = 267 s = 4.45 min
      summary: { total_calls: 5, connected_calls: 3, missed_calls: 2, total_minutes: 4.45 },
      data: [
        {
          call_log_id: 'C-0101-late',
          caller_number: '+91 98765 43210',
          call_start_time: '2025-01-01 23:59:59',
          call_duration_minutes: 0.7,
          did_number: '+912240001101',
          call_event_type: 'ANSWERED',
          substatus: 'Answered',
          total_calls_from_caller: 7,
          prev_calls_count: 1,
          recording_url: 'https://rec.example.com/1.mp3',
        },
        {
          call_log_id: 'C-0102-midnight',
          caller_number: '919876543210',
          call_start_time: '2025-01-02 00:00:00',
          call_duration_minutes: 0,
          did_number: '+912240001101',
          call_event_type: 'MISSED',
          substatus: 'Missed',
          total_calls_from_caller: 7,
          prev_calls_count: 2,
          recording_url: '', // "   " in the master
        },
      ],
    })
    const rest = await post(t, PATH, { ...JAN, storelookup: token, limit: 2, page: 2 })
    expect(rest.json.data.map((c: any) => c.call_log_id)).toEqual(['C-0103-A', 'C-0103-B'])
    expect(rest.json.data.map((c: any) => c.recording_url)).toEqual(['', ''])
  })

  test('minutes are summed first and rounded once', async () => {
    // two 50 s calls: 100 s = 1.67 min, not 0.83 + 0.83 = 1.66
    const r = await post(t, PATH, { from_date: '2025-01-03', to_date: '2025-01-03', storelookup: tokenFor(t, 101) })
    expect(r.json.summary).toEqual({ total_calls: 2, connected_calls: 2, missed_calls: 0, total_minutes: 1.67 })
  })

  test.each([
    ['Answered', ['C-0101-late', 'C-0103-A', 'C-0103-B'], { total_calls: 3, connected_calls: 3, missed_calls: 0, total_minutes: 2.37 }],
    ['connected', ['C-0101-late', 'C-0103-A', 'C-0103-B'], { total_calls: 3, connected_calls: 3, missed_calls: 0, total_minutes: 2.37 }],
    ['Missed', ['C-0102-midnight'], { total_calls: 1, connected_calls: 0, missed_calls: 1, total_minutes: 0 }],
    ['Offline', ['C-0104'], { total_calls: 1, connected_calls: 0, missed_calls: 1, total_minutes: 2.08 }],
    ['missed', ['C-0102-midnight', 'C-0104'], { total_calls: 2, connected_calls: 0, missed_calls: 2, total_minutes: 2.08 }],
  ])('substatus %s filters rows and summary', async (substatus, expected, summary) => {
    const r = await post(t, PATH, { ...JAN, storelookup: tokenFor(t, 101), substatus })
    expect(r.json.data.map((c: any) => c.call_log_id)).toEqual(expected)
    expect(r.json.total).toBe(expected.length)
    expect(r.json.summary).toEqual(summary)
  })

  test('no calls in the range is 200 No record found; a page past the end is an empty 200', async () => {
    const none = await post(t, PATH, { from_date: '2030-01-01', to_date: '2030-12-31', storelookup: tokenFor(t, 101) })
    expect(none.json).toMatchObject({
      code: 200,
      message: 'No record found',
      total: 0,
      total_pages: 0,
      has_more: false,
      summary: { total_calls: 0, connected_calls: 0, missed_calls: 0, total_minutes: 0 },
      data: [],
    })
    const past = await post(t, PATH, { ...JAN, storelookup: tokenFor(t, 101), page: 9 })
    expect(past.json).toMatchObject({ code: 200, message: '', page: 9, returned: 0, total: 5, has_more: false, data: [] })
  })

  test('limit defaults to 50 and is clamped to 500', async () => {
    expect((await post(t, PATH, { ...JAN, storelookup: tokenFor(t, 101) })).json.limit).toBe(50)
    expect((await post(t, PATH, { ...JAN, storelookup: tokenFor(t, 101), limit: '501' })).json.limit).toBe(500)
  })

  test.each([
    [JAN, 'storelookup is required'],
    [{ ...JAN, storelookup: tokenFor(t, 101), substatus: 'MISSED' }, 'Invalid substatus'],
    [{ ...JAN, storelookup: tokenFor(t, 101), page: 'two' }, 'page must be a positive integer'],
    [{ ...JAN, storelookup: tokenFor(t, 103) }, 'Invalid storelookup'],
    [{ ...JAN, storelookup: tokenFor(t, 101, 2) }, 'Invalid storelookup'],
    [{ from_date: '2025-01-01', storelookup: tokenFor(t, 101) }, 'from_date and to_date are required'],
  ])('400 for %j: %s', async (body, message) => {
    await fails(PATH, body, 400, message)
  })
})
