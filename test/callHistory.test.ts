// POST /listing/listingtiles against the test fixtures (db/fixtures/test.ts):
// every field, every rule of spec 4.1 and decisions 11-15, the error table row by row.
import { describe, expect, test } from 'bun:test'
import { demoApp, expectFailure, minutesHalfUp, post, sendAsDemo, testApp, tokenFor } from './helpers'
import { TEST_DATA_AS_OF } from '../db/fixtures/test'
import { CallRecord } from '../src/http/routes/callHistory'

const t = testApp()
const PATH = '/listing/listingtiles'
const JAN = { from_date: '2025-01-01', to_date: '2025-01-31' }
const history = (body: Record<string, unknown>) => post(t, PATH, body)
const ids = (r: { json: any }) => r.json.data.map((c: any) => c.call_log_id)

const fails = (body: unknown, code: number, message: string) => expectFailure(t, PATH, body, code, message)

describe('a call record', () => {
  test('has every field of spec 2.1, derived as master-contract §2 says', async () => {
    const r = await history({ ...JAN, call_log_id: 'C-0101-late' })
    expect(r.status).toBe(200)
    expect(r.json.data).toEqual([
      {
        website_id: 101,
        sap_code: 'D100',
        dealership_name: 'Alpha Tiles Andheri',
        city: 'Mumbai',
        district: 'Mumbai Suburban',
        state: 'Maharashtra',
        country: 'India',
        pincode: '400053',
        call_log_id: 'C-0101-late',
        call_number_with_c_code: '+91 98765 43210',
        mobile: '9876543210',
        call_start_time: '2025-01-01 23:59:59',
        call_duration_minutes: 0.7,
        call_did_number: '+912240001101',
        call_event_type: 'ANSWERED',
        substatus: 'Answered',
        call_recording_url: 'https://rec.example.com/1.mp3',
        crm_lead_id: 'LEAD-1',
        crm_synced_at: '2025-01-02 00:10:00',
        // the caller's 7 calls include those at a deleted store, an inactive dealer's store, an orphan store and a NULL store
        total_calls_from_caller: 7,
        prev_calls_count: 1,
        created_at: '2025-01-01 23:59:59',
      },
    ])
    // in the documented order, and nothing else (no feed item's "change")
    // (JSON.parse keeps the text's order of keys)
    expect(Object.keys(r.json.data[0])).toEqual(Object.keys(CallRecord.properties))
  })

  test('the envelope echoes the range, the filters and the integration', async () => {
    const r = await history({ ...JAN, call_log_id: 'C-0101-late', sap_code: 'D100', substatus: 'connected' })
    const { data, ...rest } = r.json
    expect(rest).toEqual({
      code: 200,
      status: true,
      data_as_of: TEST_DATA_AS_OF,
      user: 'Acme Partner',
      from_date: '2025-01-01',
      to_date: '2025-01-31',
      filters: { sap_code: 'D100', call_log_id: 'C-0101-late', substatus: 'connected' },
      paging: { total_records: 1, total_pages: 1, page: 1, limit: 50, returned: 1, has_more: false },
    })
    expect(data.length).toBe(1)
  })

  test('filters not supplied, null or "" echo as null', async () => {
    const r = await history({ ...JAN, sap_code: null, call_log_id: '', substatus: '' })
    expect(r.json.filters).toEqual({ sap_code: null, call_log_id: null, substatus: null })
  })

  test('one caller ringing from three spellings is one caller', async () => {
    const r = await history({ ...JAN, storelookup: tokenFor(t, 101) })
    const byId = Object.fromEntries(r.json.data.map((c: any) => [c.call_log_id, c]))
    for (const id of ['C-0101-late', 'C-0102-midnight', 'C-0103-B']) {
      expect(byId[id].mobile).toBe('9876543210')
      expect(byId[id].total_calls_from_caller).toBe(7)
    }
    expect(byId['C-0101-late'].call_number_with_c_code).toBe('+91 98765 43210')
    expect(byId['C-0102-midnight'].call_number_with_c_code).toBe('919876543210')
    expect(byId['C-0103-B'].call_number_with_c_code).toBe('09876543210')
    // prev counts follow (call_start_time, call_log_id) over all of the caller's calls, visible or not
    expect([byId['C-0101-late'].prev_calls_count, byId['C-0102-midnight'].prev_calls_count, byId['C-0103-B'].prev_calls_count]).toEqual([1, 2, 5])
    expect(byId['C-0103-A'].mobile).toBe('8000000001')
    expect([byId['C-0103-A'].total_calls_from_caller, byId['C-0103-A'].prev_calls_count]).toEqual([2, 0])
    expect([byId['C-0104'].total_calls_from_caller, byId['C-0104'].prev_calls_count]).toEqual([2, 1])
  })

  test('durations are decimal minutes rounded half-up to 2 places', async () => {
    const r = await history(JAN)
    const minutes = Object.fromEntries(r.json.data.map((c: any) => [c.call_log_id, c.call_duration_minutes]))
    expect(minutes['C-0101-late']).toBe(0.7) // 42 s
    expect(minutes['C-0103-A']).toBe(0.83) // 50 s
    expect(minutes['C-0104']).toBe(2.08) // 125 s
    expect(minutes['C-0102-midnight']).toBe(0)
    expect(minutes['C-102-2']).toBe(5)
  })

  test('a third decimal of 5 or more rounds up, where cutting it off would not: 1 s is 0.02, 37 s is 0.62', async () => {
    const seconds = [1, 3, 37, 599, 61]
    const d = demoApp(seconds.map((s, i) => ({ store: 1, time: `2025-03-0${i + 1} 10:00:00`, id: `ROUND-${s}`, seconds: s })))
    const r = await sendAsDemo(d, PATH, { from_date: '2025-03-01', to_date: '2025-03-09', sap_code: 'SAP1001', limit: 500 })
    const minutes = Object.fromEntries(r.json.data.filter((c: any) => c.call_log_id.startsWith('ROUND-')).map((c: any) => [c.call_log_id, c.call_duration_minutes]))
    expect(minutes).toEqual({ 'ROUND-1': 0.02, 'ROUND-3': 0.05, 'ROUND-37': 0.62, 'ROUND-599': 9.98, 'ROUND-61': 1.02 })
    for (const s of seconds) expect(minutes[`ROUND-${s}`]).toBe(minutesHalfUp(s))
  })

  test('blank recording and CRM values are null; case of the event type is kept', async () => {
    const r = await history(JAN)
    const byId = Object.fromEntries(r.json.data.map((c: any) => [c.call_log_id, c]))
    expect(byId['C-0102-midnight'].call_recording_url).toBeNull() // "   "
    expect(byId['C-0102-midnight'].crm_lead_id).toBeNull() // " "
    expect(byId['C-0103-B'].call_recording_url).toBeNull() // ""
    expect(byId['C-0103-A'].call_recording_url).toBeNull() // NULL
    expect(byId['C-0103-A'].crm_synced_at).toBeNull()
    expect(byId['C-0103-B'].call_event_type).toBe('answered')
  })

  test('the dealership name falls back to the dealer, then to the literal; NULL location stays null', async () => {
    const r = await history({ from_date: '2025-01-01', to_date: '2025-02-28' })
    const byId = Object.fromEntries(r.json.data.map((c: any) => [c.call_log_id, c]))
    expect(byId['C-102-1'].dealership_name).toBe('Alpha Tiles')
    expect(byId['C-102-1'].district).toBeNull()
    expect(byId['C-102-1'].pincode).toBeNull()
    expect(byId['C-201-1'].dealership_name).toBe('Dealer Name Not Available')
  })
})

describe('rules', () => {
  test('calls are oldest first, ties broken by call_log_id (decision 11); invisible calls never show', async () => {
    const r = await history(JAN)
    expect(ids(r)).toEqual(['C-0101-late', 'C-0102-midnight', 'C-102-1', 'C-102-2', 'C-0103-A', 'C-0103-B', 'C-0104'])
  })

  test('to_date includes its whole day, and a day is IST wall-clock midnight to 23:59:59', async () => {
    expect(ids(await history({ from_date: '2025-01-01', to_date: '2025-01-01' }))).toEqual(['C-0101-late'])
    expect(ids(await history({ from_date: '2025-01-02', to_date: '2025-01-02' }))).toEqual(['C-0102-midnight', 'C-102-1', 'C-102-2'])
  })

  test.each([
    ['Answered', ['C-0101-late', 'C-102-2', 'C-0103-A', 'C-0103-B']],
    ['connected', ['C-0101-late', 'C-102-2', 'C-0103-A', 'C-0103-B']],
    ['Missed', ['C-0102-midnight', 'C-102-1']],
    ['Offline', ['C-0104']],
    ['missed', ['C-0102-midnight', 'C-102-1', 'C-0104']],
  ])('substatus %s', async (substatus, expected) => {
    const r = await history({ ...JAN, substatus })
    expect(ids(r)).toEqual(expected)
    expect(r.json.paging.total_records).toBe(expected.length)
  })

  test('sap_code covers all of the dealer\'s visible stores, merged in time order', async () => {
    const r = await history({ ...JAN, sap_code: 'D100' })
    expect(ids(r)).toEqual(['C-0101-late', 'C-0102-midnight', 'C-102-1', 'C-102-2', 'C-0103-A', 'C-0103-B', 'C-0104'])
  })

  test('storelookup narrows to one store', async () => {
    const r = await history({ ...JAN, storelookup: tokenFor(t, 102) })
    expect(ids(r)).toEqual(['C-102-1', 'C-102-2'])
  })

  test('sap_code and storelookup together both apply', async () => {
    expect(ids(await history({ ...JAN, sap_code: 'D100', storelookup: tokenFor(t, 102) }))).toEqual(['C-102-1', 'C-102-2'])
    await fails({ ...JAN, sap_code: 'D200', storelookup: tokenFor(t, 102) }, 404, 'No record found')
  })

  test('call_log_id is an exact match inside the date range', async () => {
    expect(ids(await history({ ...JAN, call_log_id: 'C-0103-A' }))).toEqual(['C-0103-A'])
    await fails({ from_date: '2025-01-04', to_date: '2025-01-31', call_log_id: 'C-0103-A' }, 404, 'No record found')
    await fails({ ...JAN, call_log_id: 'c-0103-a' }, 404, 'No record found')
    await fails({ ...JAN, call_log_id: 'C-103-deleted' }, 404, 'No record found')
    await fails({ ...JAN, call_log_id: 'C-0103-A', sap_code: 'D200' }, 404, 'No record found')
    await fails({ ...JAN, call_log_id: 'C-0103-A', substatus: 'missed' }, 404, 'No record found')
  })

  test('pages walk the whole range in order; has_more turns false on the last', async () => {
    const walked: string[] = []
    for (let page = 1; ; page++) {
      const r = await history({ ...JAN, limit: 2, page })
      expect(r.json.paging).toEqual({ total_records: 7, total_pages: 4, page, limit: 2, returned: page < 4 ? 2 : 1, has_more: page < 4 })
      walked.push(...ids(r))
      if (!r.json.paging.has_more) break
    }
    expect(walked).toEqual(ids(await history(JAN)))
  })

  test('page and limit may be strings of digits; limit is clamped to 500 and echoed', async () => {
    const r = await history({ ...JAN, page: '2', limit: '3' })
    expect(r.json.paging.page).toBe(2)
    expect(r.json.paging.limit).toBe(3)
    expect(ids(r)).toEqual(['C-102-2', 'C-0103-A', 'C-0103-B'])
    expect((await history({ ...JAN, limit: 100000 })).json.paging.limit).toBe(500)
  })
})

describe('error table', () => {
  test('400 Invalid JSON for a missing or malformed body', async () => {
    await fails('', 400, 'Invalid JSON')
    await fails('{"from_date":', 400, 'Invalid JSON')
  })

  test.each([
    [{ to_date: '2025-01-31' }, 'from_date and to_date are required'],
    [{ from_date: '2025-01-01' }, 'from_date and to_date are required'],
    [{}, 'from_date and to_date are required'],
    [{ from_date: null, to_date: '2025-01-31' }, 'from_date and to_date are required'],
    [{ from_date: '', to_date: '2025-01-31' }, 'from_date and to_date are required'],
    [{ from_date: '2025/01/01', to_date: '2025-01-31' }, 'Dates must be in YYYY-MM-DD format'],
    [{ from_date: '2025-1-1', to_date: '2025-01-31' }, 'Dates must be in YYYY-MM-DD format'],
    [{ from_date: '2025-02-30', to_date: '2025-03-31' }, 'Dates must be in YYYY-MM-DD format'],
    [{ from_date: '2025-02-29', to_date: '2025-03-31' }, 'Dates must be in YYYY-MM-DD format'],
    [{ from_date: '2025-01-01', to_date: '2025-13-01' }, 'Dates must be in YYYY-MM-DD format'],
    [{ from_date: '2025-01-01T00:00:00', to_date: '2025-01-31' }, 'Dates must be in YYYY-MM-DD format'],
    [{ from_date: ' 2025-01-01', to_date: '2025-01-31' }, 'Dates must be in YYYY-MM-DD format'],
    [{ from_date: 20250101, to_date: '2025-01-31' }, 'from_date must be a string'],
    [{ from_date: '2025-02-01', to_date: '2025-01-31' }, 'from_date cannot be later than to_date'],
    [{ ...JAN, sap_code: 5 }, 'sap_code must be a string'],
    [{ ...JAN, sap_code: 'X'.repeat(21) }, 'sap_code is too long'],
    [{ ...JAN, call_log_id: 'C'.repeat(65) }, 'call_log_id is too long'],
    [{ ...JAN, call_log_id: 7 }, 'call_log_id must be a string'],
    [{ ...JAN, storelookup: 'A'.repeat(513) }, 'Invalid storelookup'],
    [{ ...JAN, storelookup: 'not-a-token' }, 'Invalid storelookup'],
    [{ ...JAN, substatus: 'answered' }, 'Invalid substatus'],
    [{ ...JAN, substatus: 'Answered ' }, 'Invalid substatus'],
    [{ ...JAN, substatus: 1 }, 'substatus must be a string'],
    [{ ...JAN, page: 0 }, 'page must be a positive integer'],
    [{ ...JAN, page: -1 }, 'page must be a positive integer'],
    [{ ...JAN, page: 1.5 }, 'page must be a positive integer'],
    [{ ...JAN, page: '1.0' }, 'page must be a positive integer'],
    [{ ...JAN, page: ' 1' }, 'page must be a positive integer'],
    [{ ...JAN, page: true }, 'page must be a positive integer'],
    [{ ...JAN, limit: 0 }, 'limit must be a positive integer'],
    [{ ...JAN, limit: '-5' }, 'limit must be a positive integer'],
  ])('400 for %j: %s', async (body, message) => {
    await fails(body, 400, message)
  })

  test('a date is a real calendar day: 29 February of a leap year is fine', async () => {
    expect((await history({ from_date: '2024-02-29', to_date: '2025-01-31' })).status).toBe(200)
    await fails({ from_date: '0000-02-29', to_date: '0000-02-29' }, 404, 'No record found') // year 0 is a leap year
    await fails({ from_date: '1900-02-29', to_date: '1900-03-01' }, 400, 'Dates must be in YYYY-MM-DD format')
    await fails({ from_date: '2000-02-29', to_date: '2000-03-01' }, 404, 'No record found')
  })

  test('a reversed range is reported before other fields', async () => {
    await fails({ from_date: '2025-02-01', to_date: '2025-01-01', page: 0, storelookup: 'x'.repeat(600) }, 400, 'from_date cannot be later than to_date')
  })

  test('a missing date is reported before a malformed one', async () => {
    await fails({ from_date: 'x' }, 400, 'from_date and to_date are required')
    await fails({ to_date: '2025-13-45' }, 400, 'from_date and to_date are required')
  })

  test('a limit of any size is clamped; a page of any size is past the end', async () => {
    for (const limit of ['9999999999999999', '100000000000000000000000000000', 1e21, 9007199254740992]) {
      expect((await history({ ...JAN, limit })).json.paging.limit).toBe(500)
    }
    await fails({ ...JAN, page: '99999999999999999999' }, 404, 'Page out of range')
    await fails({ ...JAN, page: 1e21 }, 404, 'Page out of range')
    // 1e400 parses to Infinity, which is no integer
    await fails(`{"from_date":"2025-01-01","to_date":"2025-01-31","page":1e400}`, 400, 'page must be a positive integer')
  })

  test('dates are checked before other fields (first field in schema order wins)', async () => {
    await fails({ from_date: '2025-02-30', to_date: '2025-03-01', page: 0 }, 400, 'Dates must be in YYYY-MM-DD format')
  })

  test('a call_log_id of exactly 64 characters is valid', async () => {
    await fails({ ...JAN, call_log_id: 'C'.repeat(64) }, 404, 'No record found')
  })

  test('a storelookup issued to another integration is invalid', async () => {
    await fails({ ...JAN, storelookup: tokenFor(t, 101, 2) }, 400, 'Invalid storelookup')
  })

  test('a storelookup of a store that is no longer visible is invalid', async () => {
    for (const hidden of [103, 301, 601]) await fails({ ...JAN, storelookup: tokenFor(t, hidden) }, 400, 'Invalid storelookup')
  })

  test('a bad storelookup (400) wins over an unknown sap_code (404)', async () => {
    await fails({ ...JAN, sap_code: 'NOPE', storelookup: 'broken' }, 400, 'Invalid storelookup')
  })

  test.each([
    ['unknown', 'D999'],
    ['inactive', 'D300'],
    ['of another case', 'd100'],
    ['with a leading space', ' D100'],
  ])('404 SAP code not found for a sap_code %s', async (_, sapCode) => {
    await fails({ ...JAN, sap_code: sapCode }, 404, 'SAP code not found')
  })

  test('404 SAP code not found wins over the no-record outcome', async () => {
    await fails({ from_date: '2030-01-01', to_date: '2030-01-31', sap_code: 'D999' }, 404, 'SAP code not found')
  })

  test('404 No record found when valid filters match nothing', async () => {
    await fails({ from_date: '2030-01-01', to_date: '2030-01-31' }, 404, 'No record found')
    await fails({ ...JAN, sap_code: 'D400' }, 404, 'No record found') // active dealer without stores
    await fails({ ...JAN, storelookup: tokenFor(t, 501) }, 404, 'No record found')
  })

  test('404 Page out of range only when something matches (decision 14)', async () => {
    await fails({ ...JAN, limit: 2, page: 5 }, 404, 'Page out of range')
    await fails({ from_date: '2030-01-01', to_date: '2030-01-31', page: 5 }, 404, 'No record found')
    await fails({ ...JAN, call_log_id: 'C-0103-A', page: 2 }, 404, 'Page out of range')
  })
})
