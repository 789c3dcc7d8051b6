// did_number and event_type stored once in call_texts, calls holding their ids
// (src/store/callTexts.ts): every record and call-log row shows its own call's
// texts, a serving connection that has read the texts shows the ones a later sync
// adds, and an id names the same text through later runs and a full load.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedDemo } from '../db/fixtures/demo'
import { callRecords, callSet } from '../src/store/calls'
import { CallTextIds, callTexts } from '../src/store/callTexts'
import { callClassOf } from '../src/store/callClasses'
import { applyChanges, loadRows } from '../src/store/load'
import { closeStore, openStore, type Store } from '../src/store/open'
import type { CallRow } from '../src/store/rows'
import { readSnapshot } from '../src/store/snapshot'

type Texts = { call_log_id: string; did_number: string; event_type: string }
const YEAR = { from: '2025-01-01', to: '2025-12-31', fromTime: '2025-01-01 00:00:00', toTime: '2025-12-31 23:59:59' }

/** Each call's texts as the readable view joins them (the table's own ids, looked up in SQL). */
const viewTexts = (db: Store) =>
  new Map(db.$client.query<Texts, []>('SELECT call_log_id, did_number, event_type FROM calls_readable').all().map((r) => [r.call_log_id, r]))

type Shown = { call_log_id: string; call_did_number: string; call_event_type: string }

/** Every visible call's record as a page renders it, in the current snapshot. */
function everyRecord(db: Store): Shown[] {
  const set = callSet(db, { kind: 'all' }, YEAR, callClassOf(undefined))
  // through JSON text, as an answer carries them
  const records = JSON.parse(JSON.stringify(callRecords(db, set.recordPage(0, set.total)))) as Shown[]
  expect(records.length).toBe(set.total)
  return records
}

/** Every visible call's record, and its call-log row, against the view. */
function expectEveryCallShowsItsTexts(db: Store): number {
  return readSnapshot(db, () => {
    const truth = viewTexts(db)
    const records = everyRecord(db)
    for (const r of records) {
      const t = truth.get(r.call_log_id)!
      expect([r.call_did_number, r.call_event_type]).toEqual([t.did_number, t.event_type])
    }
    // the call log's rows, of one store
    const websiteId = db.$client.query<{ w: number }, []>('SELECT website_id AS w FROM calls WHERE visible = 1 LIMIT 1').get()!.w
    const store = callSet(db, { kind: 'store', websiteId }, YEAR, callClassOf(undefined))
    for (const row of store.logPage(0, store.total)) {
      const t = truth.get(row.call_log_id)!
      expect([row.did_number, row.call_event_type]).toEqual([t.did_number, t.event_type])
    }
    return records.length
  })
}

const textsById = (db: Store) => new Map(db.$client.query<{ id: number; text: string }, []>('SELECT id, text FROM call_texts').all().map((r) => [r.id, r.text]))

const newCall = (i: number, did: string, event: string): CallRow => ({
  call_log_id: `TEXTS-${i}`, website_id: 1, call_start_time: `2025-06-30 1${i}:00:00`, caller_number: `+91 98${i}0000000`, duration_seconds: 30,
  did_number: did, event_type: event, substatus: 'Answered', recording_url: null, crm_lead_id: null, crm_synced_at: null, created_at: `2025-06-30 1${i}:00:00`,
})

describe('texts of calls stored once', () => {
  test('every record and call-log row shows its own texts; a served connection shows the texts a later sync adds', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    const writer = openStore(path)
    seedDemo(writer)
    // one text a row of call_texts, and fewer texts than calls hold (ten stores' numbers, two event types)
    const stored = writer.$client.query<{ n: number; texts: number }, []>('SELECT count(*) AS n, count(DISTINCT text) AS texts FROM call_texts').get()!
    expect(stored).toEqual({ n: 12, texts: 12 })
    const served = openStore(path, { migrate: false, serving: true })
    const before = expectEveryCallShowsItsTexts(served)
    const ids = textsById(writer)
    // a sync brings a store's new number and a new event type, and one already known in another case
    applyChanges(writer, { calls: [newCall(1, '+91 80 4000 9999', 'TRANSFERRED'), newCall(2, '+91 80 4000 9999', 'answered'), newCall(3, '+918040000001', 'ANSWERED')] })
    for (let i = 0; i < 200 && readSnapshot(served, () => viewTexts(served).size) === viewTexts(writer).size - 3; i++) await Bun.sleep(5)
    expect(expectEveryCallShowsItsTexts(served)).toBe(before + 3)
    const newest = Math.max(...textsById(writer).keys())
    expect(readSnapshot(served, () => callTexts(served)(newest))).toBe(textsById(writer).get(newest)!)
    const after = textsById(writer)
    expect(after.size).toBe(ids.size + 3) // the number, TRANSFERRED and answered; ANSWERED was there
    for (const [id, text] of ids) expect(after.get(id)).toBe(text) // ids already given keep their texts
    // a full load of other calls keeps every id's text: a serving worker may hold them
    loadRows(writer, {
      ...Object.fromEntries(['integrations', 'dealers', 'stores', 'employees', 'employee_dealers', 'products', 'product_images'].map((t) => [t, writer.$client.query(`SELECT * FROM ${t}`).all()])),
      metrics: [],
      calls: [newCall(4, 'A NUMBER NEVER SEEN', 'MISSED'), newCall(5, '+91 80 4000 9999', 'ANSWERED')],
    } as never)
    const reloaded = textsById(writer)
    for (const [id, text] of after) expect(reloaded.get(id)).toBe(text)
    expect(reloaded.size).toBe(after.size + 1)
    expect(viewTexts(writer).get('TEXTS-4')).toEqual({ call_log_id: 'TEXTS-4', did_number: 'A NUMBER NEVER SEEN', event_type: 'MISSED' })
    for (let i = 0; i < 200 && readSnapshot(served, () => viewTexts(served).size) !== 2; i++) await Bun.sleep(5)
    expect(expectEveryCallShowsItsTexts(served)).toBe(2)
    closeStore(served)
    closeStore(writer)
  })

  test('a run that rolls back takes its ids back, and the connection that read them shows the texts the next run gives them', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    const writer = openStore(path)
    seedDemo(writer)
    const shown = (id: string) => {
      const r = readSnapshot(writer, () => everyRecord(writer)).find((x) => x.call_log_id === id)!
      return [r.call_did_number, r.call_event_type]
    }
    writer.$client.run('BEGIN IMMEDIATE')
    applyChanges(writer, { calls: [newCall(1, 'ROLLED BACK', 'NEVER')] })
    expect(shown('TEXTS-1')).toEqual(['ROLLED BACK', 'NEVER']) // read, in the run, on its own connection
    writer.$client.run('ROLLBACK')
    applyChanges(writer, { calls: [newCall(2, 'THE NEXT RUN', 'ITS EVENT')] })
    expect(shown('TEXTS-2')).toEqual(['THE NEXT RUN', 'ITS EVENT'])
    closeStore(writer)
  })

  test("a text found again by its store's slot or in the short list has the id a look-up by text gives", () => {
    const db = openStore(join(mkdtempSync(join(tmpdir(), 'listing-texts-')), 'store.sqlite'))
    const ids = new CallTextIds(db.$client)
    const idInTable = db.$client.query<{ id: number }, [string]>('SELECT id FROM call_texts WHERE text = ?')
    // stores sharing a slot (ids 65,536 apart), a store whose text changes, the empty text, and more texts than the list holds
    const asked: [string, number][] = []
    for (let i = 0; i < 400; i++) asked.push([`+9180${i % 37}`, (i % 5) * 65_536 + (i % 3)], [i % 50 === 0 ? '' : `+9181${i % 11}`, 7], [`EVENT-${i % 13}`, -1])
    for (const [text, store] of asked) {
      const id = store < 0 ? ids.idOfFew(text) : ids.idOfStore(text, store)
      expect({ text, id }).toEqual({ text, id: idInTable.get(text)?.id as number })
    }
    closeStore(db)
  })
})

