// POST /listing/changes in process over the fixtures: its own fields row by row
// (cursor, limit), the walk's paging, and a call added the way sync adds one.
// The feed's promises through real syncs are in changes.test.ts.
import { describe, expect, test } from 'bun:test'
import { createChangesCursors } from '../src/changesCursor'
import { applyChanges } from '../src/store/load'
import { demoApp, expectDocumented, expectFailure, post, sendAsDemo, testApp, type TestApp } from './helpers'

const PATH = '/listing/changes'
const t = testApp()

async function walkAll(app: TestApp, limit: number) {
  const items: any[] = []
  let cursor: string | null = null
  for (;;) {
    const r = await post(app, PATH, { cursor, limit })
    expect(r.status).toBe(200)
    expectDocumented(app, PATH, 200, r.json)
    items.push(...r.json.data)
    cursor = r.json.next_cursor
    if (!r.json.has_more) return { items, cursor: cursor! }
  }
}

describe('POST /listing/changes: fields', () => {
  test('no cursor, null and "" all start at the beginning, with the default limit 500', async () => {
    const answers = await Promise.all([{}, { cursor: null }, { cursor: '' }].map((body) => post(t, PATH, body)))
    for (const r of answers) {
      expect(r.status).toBe(200)
      expect(r.json.limit).toBe(500)
      expect(r.json.data_as_of).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    }
    expect(answers[1].json.data).toEqual(answers[0].json.data)
    expect(answers[2].json.data).toEqual(answers[0].json.data)
    expect(answers[0].json.returned).toBe(answers[0].json.data.length)
    expect(answers[0].json.returned).toBeGreaterThan(0)
  })

  test('limit is clamped to 1000, and a digit string counts (decision 5)', async () => {
    expect((await post(t, PATH, { limit: 5000 })).json.limit).toBe(1000)
    const two = await post(t, PATH, { limit: '2' })
    expect([two.json.limit, two.json.returned, two.json.has_more]).toEqual([2, 2, true])
  })

  test.each([
    [{ limit: 0 }, 'limit must be a positive integer'],
    [{ limit: -1 }, 'limit must be a positive integer'],
    [{ limit: 1.5 }, 'limit must be a positive integer'],
    [{ limit: 'ten' }, 'limit must be a positive integer'],
    [{ cursor: 42 }, 'cursor must be a string'],
    [{ cursor: ['x'] }, 'cursor must be a string'],
    [{ cursor: 'not-a-cursor' }, 'Invalid cursor'],
    [{ cursor: 'a'.repeat(257) }, 'Invalid cursor'],
    [{ cursor: 'AQAB+/==' }, 'Invalid cursor'],
  ])('%j is 400 %s', async (body, message) => {
    await expectFailure(t, PATH, body, 400, message)
  })

  test('a cursor edited in any one character, or sealed under another secret, is 400 Invalid cursor', async () => {
    const issued = (await post(t, PATH, { limit: 3 })).json.next_cursor as string
    expect(issued.length).toBeLessThanOrEqual(256)
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    for (let i = 0; i < issued.length; i += 7) {
      const other = alphabet[(alphabet.indexOf(issued[i]) + 1) % 64]
      await expectFailure(t, PATH, { cursor: issued.slice(0, i) + other + issued.slice(i + 1) }, 400, 'Invalid cursor')
    }
    const elsewhere = createChangesCursors('another secret of at least 32 bytes!').seal({ origin: '00', after: null, base: 0, head: 0 })
    await expectFailure(t, PATH, { cursor: elsewhere }, 400, 'Invalid cursor')
  })
})

/** The demo store's feed walked to its end: the cursor after its last item. */
async function cursorAtEnd(demo: ReturnType<typeof demoApp>): Promise<string> {
  let cursor: string | null = null
  for (;;) {
    const r = await sendAsDemo(demo, PATH, { cursor, limit: 1000 })
    cursor = r.json.next_cursor
    if (!r.json.has_more) return cursor!
  }
}

describe('POST /listing/changes: walking', () => {
  test('small answers concatenate to exactly the one big answer: no gap, no repeat', async () => {
    const big = await walkAll(t, 1000)
    const small = await walkAll(t, 3)
    expect(small.items).toEqual(big.items)
    expect(new Set(big.items.map((i) => i.call_log_id)).size).toBe(big.items.length)
    expect(big.items.some((i) => i.change === 'delete')).toBe(true) // calls of invisible stores
  })

  test('an upsert is the call as call history shows it', async () => {
    const { items } = await walkAll(t, 1000)
    const upsert = items.find((i) => i.change === 'upsert')
    const history = await post(t, '/listing/listingtiles', { from_date: '2000-01-01', to_date: '2099-12-31', call_log_id: upsert.call_log_id })
    const { change, ...record } = upsert
    expect(change).toBe('upsert')
    expect(history.json.data).toEqual([record])
  })

  test('a call added the way sync adds one comes after the last cursor, and only it', async () => {
    const demo = demoApp()
    const cursor = await cursorAtEnd(demo)
    applyChanges(demo.db, { calls: [{
      call_log_id: 'FEED-NEW-1', website_id: 1, call_start_time: '2025-01-20 10:00:00', caller_number: '+919000000001', duration_seconds: 30,
      did_number: '+918040099999', event_type: 'TEST', substatus: 'Answered', recording_url: null, crm_lead_id: null, crm_synced_at: null, created_at: '2025-01-20 10:00:00',
    }] })
    const r = await sendAsDemo(demo, PATH, { cursor })
    expect(r.status).toBe(200)
    expect(r.json.data.map((i: any) => [i.change, i.call_log_id])).toEqual([['upsert', 'FEED-NEW-1']])
    expect(r.json.has_more).toBe(false)
  })

  // MariaDB keeps zero dates ('0000-00-00 00:00:00', '2025-00-10 ...') in a DATETIME unless
  // sql_mode forbids them: such a call falls in no date range of call history, but the feed
  // lists every call of a visible store, with the master's texts unchanged (callCodec.ts)
  test('a call whose times are no real instants keeps the master texts in its upsert; real ones are written as times', async () => {
    const demo = demoApp()
    const cursor = await cursorAtEnd(demo)
    const call = (id: string, start: string, created: string, synced: string | null) => ({
      call_log_id: id, website_id: 1, call_start_time: start, caller_number: '+919000000001', duration_seconds: 30,
      did_number: '+918040099999', event_type: 'TEST', substatus: 'Answered', recording_url: null, crm_lead_id: null, crm_synced_at: synced, created_at: created,
    })
    applyChanges(demo.db, { calls: [
      call('FEED-ZERO-1', '0000-00-00 00:00:00', '0000-00-00 00:00:00', null),
      call('FEED-ZERO-2', '2025-00-10 10:00:00', '2025-01-20 10:00:05', '2025-01-20 10:05:00'),
      call('FEED-ZERO-3', '2025-01-20 10:00:00', '2025-01-20 10:00:00', '2025-00-20 10:05:00'),
      call('FEED-ZERO-4', '2025-01-20 10:00:00', '0000-00-00 00:00:00', '2025-01-20 10:05:00'),
      // and real times, each other than the start: a page writes its times together (TimeTexts)
      call('FEED-ZERO-5', '2025-01-20 10:00:00', '2025-01-20 10:00:05', '2025-01-21 11:05:00'),
      call('FEED-ZERO-6', '2025-01-20 10:00:01', '2025-01-20 10:00:01', '2025-01-20 23:59:59'),
    ] })
    const r = await sendAsDemo(demo, PATH, { cursor })
    expect(r.status).toBe(200)
    expectDocumented(demo, PATH, 200, r.json)
    expect(r.json.data.map((i: any) => [i.change, i.call_log_id, i.call_start_time, i.created_at, i.crm_synced_at])).toEqual([
      ['upsert', 'FEED-ZERO-1', '0000-00-00 00:00:00', '0000-00-00 00:00:00', null],
      ['upsert', 'FEED-ZERO-2', '2025-00-10 10:00:00', '2025-01-20 10:00:05', '2025-01-20 10:05:00'],
      ['upsert', 'FEED-ZERO-3', '2025-01-20 10:00:00', '2025-01-20 10:00:00', '2025-00-20 10:05:00'],
      ['upsert', 'FEED-ZERO-4', '2025-01-20 10:00:00', '0000-00-00 00:00:00', '2025-01-20 10:05:00'],
      ['upsert', 'FEED-ZERO-5', '2025-01-20 10:00:00', '2025-01-20 10:00:05', '2025-01-21 11:05:00'],
      ['upsert', 'FEED-ZERO-6', '2025-01-20 10:00:01', '2025-01-20 10:00:01', '2025-01-20 23:59:59'],
    ])
    // call history shows the calls with real starts the same, on one page of its own
    const history = await sendAsDemo(demo, '/listing/listingtiles', { from_date: '2025-01-20', to_date: '2025-01-20', limit: 500 })
    const shown = history.json.data.filter((r: any) => r.call_log_id.startsWith('FEED-ZERO-'))
    expect(shown).toEqual(r.json.data.slice(2).map(({ change, ...record }: any) => record))
  })
})
