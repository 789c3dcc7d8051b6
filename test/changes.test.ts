// The change feed's promises (changes.md), one scenario each, against the real
// MariaDB through real syncs: a partner's copy built from the feed equals call
// history, after a day of changes the feed lists exactly what changed, a sync
// mid-walk loses nothing, re-reading the look-back moves nothing, and cursors
// survive a restart and work on a second replica of the same master.
import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { applyDayOfChanges, benchKey, dayOfChangesAt, seedMaster } from '../scripts/seed-master'
import { openStore, type Store } from '../src/store/open'
import { runSync } from '../src/sync/run'
import { appOver, type TestApp } from './helpers'
import { throwawayMaster } from './mariadb'

const SCALE = 0.0005 // 10,000 calls, 12 stores
const SECRET = 'c'.repeat(32)
const KEY = benchKey(2) // applyDayOfChanges revokes key 1
const dir = mkdtempSync(join(tmpdir(), 'listing-changes-'))
let n = 0
const newStore = () => openStore(join(dir, `store-${++n}.sqlite`))
type Master = Awaited<ReturnType<typeof throwawayMaster>>
const masters: Master[] = []
afterEach(async () => {
  for (const m of masters.splice(0)) await m.drop()
})

async function seededMaster(): Promise<Master> {
  const m = await throwawayMaster()
  masters.push(m)
  await seedMaster(m.master, { scale: SCALE, seed: 11 })
  return m
}

type Record_ = Record<string, unknown>
/** A partner's copy: call_log_id → the call as last received, without total_calls_from_caller. */
type Copy = Map<string, Record_>
interface Item extends Record_ {
  change: 'upsert' | 'delete'
  call_log_id: string
}

async function ask(t: TestApp, path: string, body: object): Promise<any> {
  const res = await t.app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'x-api-key': KEY }, body: JSON.stringify(body) }))
  return { http: res.status, ...((await res.json()) as object) }
}

const withoutTotal = ({ total_calls_from_caller: _, ...rest }: Record_) => rest

function applyTo(copy: Copy, items: Item[]): void {
  for (const { change, ...call } of items) {
    if (change === 'upsert') copy.set(call.call_log_id, withoutTotal(call))
    else copy.delete(call.call_log_id)
  }
}

/** Walks the feed from `cursor` until has_more is false (or `answers` answers), applying what it lists. */
async function walk(t: TestApp, cursor: string | null, copy: Copy, { limit = 1000, answers = Infinity } = {}) {
  const items: Item[] = []
  for (let i = 0; i < answers; i++) {
    const r = await ask(t, '/listing/changes', { cursor, limit })
    expect(r.http).toBe(200)
    expect(r.returned).toBe(r.data.length)
    expect(r.next_cursor).toMatch(/^[A-Za-z0-9_-]{1,256}$/)
    applyTo(copy, r.data)
    items.push(...r.data)
    cursor = r.next_cursor
    if (!r.has_more) return { items, cursor: cursor!, done: true }
  }
  return { items, cursor: cursor!, done: false }
}

/** Call history over all time, every page: what a copy must equal. */
async function history(t: TestApp): Promise<Copy> {
  const out: Copy = new Map()
  for (let page = 1; ; page++) {
    const r = await ask(t, '/listing/listingtiles', { from_date: '2000-01-01', to_date: '2099-12-31', limit: 500, page })
    if (r.http === 404) break
    expect(r.http).toBe(200)
    for (const call of r.data) out.set(call.call_log_id, withoutTotal(call))
    if (!r.paging.has_more) break
  }
  return out
}

const sorted = (copy: Copy) => [...copy.entries()].sort(([a], [b]) => (a < b ? -1 : 1))
const appOf = (db: Store) => appOver(db, SECRET, 'https://i/')

async function syncedStore(m: Master) {
  const db = newStore()
  await runSync(db, m.url)
  return { db, t: appOf(db) }
}

describe('the change feed', () => {
  test('a copy built from the beginning equals call history', async () => {
    const m = await seededMaster()
    const { db, t } = await syncedStore(m)
    const copy: Copy = new Map()
    const walked = await walk(t, null, copy, { limit: 1000 })
    expect(walked.done).toBe(true)
    const want = await history(t)
    expect(want.size).toBeGreaterThan(5000)
    expect(sorted(copy)).toEqual(sorted(want))
    // every call is listed once: the visible ones as upserts, the others as deletes
    const { calls, invisible } = db.$client
      .query('SELECT count(*) AS calls, sum(coalesce(s.visible, 0) = 0) AS invisible FROM calls c LEFT JOIN stores s ON s.website_id = c.website_id')
      .get() as { calls: number; invisible: number }
    expect(walked.items.length).toBe(calls)
    expect(new Set(walked.items.map((i) => i.call_log_id)).size).toBe(calls)
    expect(walked.items.filter((i) => i.change === 'delete').length).toBe(invisible)
    expect(invisible).toBeGreaterThan(0)
    // the walk's end stands still: asking again lists nothing and keeps the cursor
    const again = await ask(t, '/listing/changes', { cursor: walked.cursor })
    expect(again).toMatchObject({ returned: 0, has_more: false, next_cursor: walked.cursor, limit: 500, data: [] })
  }, 60_000)

  test('after a day of changes, a walk from the old cursor lists exactly the calls whose record or visibility changed', async () => {
    const m = await seededMaster()
    const { db, t } = await syncedStore(m)
    const copy: Copy = new Map()
    const { cursor } = await walk(t, null, copy)
    const before = await history(t)
    const [masterIds] = (await m.master.query('SELECT call_log_id FROM call_logs')) as any
    const known = new Set<string>(masterIds.map((r: any) => r.call_log_id))

    // a day at the master: new calls, recordings and CRM fields filled in, substatus corrected,
    // listing rows revised, a store deleted, a dealer's flag and name changed (seed-master.ts) …
    await applyDayOfChanges(m.master, { seed: 5, changes: dayOfChangesAt(SCALE) })
    const q = async (sql: string, params: unknown[] = []) => ((await m.master.query(sql, params)) as any)[0]
    const visibleStores = await q(`SELECT w.id, w.sap_code FROM websites w JOIN dealer_master d ON d.sap_code = w.sap_code AND d.is_active = 1
      WHERE w.is_deleted = 0 AND EXISTS (SELECT 1 FROM call_logs c WHERE c.website_id = w.id) ORDER BY w.id`)
    expect(visibleStores.length).toBeGreaterThan(3)
    // … a store renamed, another dealer deactivated …
    await q("UPDATE websites SET store_name = 'Renamed Showroom' WHERE id = ?", [visibleStores[0].id])
    const deactivated = visibleStores.at(-1).sap_code
    await q('UPDATE dealer_master SET is_active = 0 WHERE sap_code = ?', [deactivated])
    // … a call deleted outright, and one committed late, inside the look-back
    const [gone] = await q('SELECT call_log_id FROM call_logs WHERE website_id = ? ORDER BY id LIMIT 1', [visibleStores[1].id])
    // changes no copy can see: a call of no store gets its recording, a visible call's missing
    // CRM lead id turns from NULL to blank (both show as null)
    expect((await q("UPDATE call_logs SET recording_url = 'https://r/unseen.mp3', updated_at = NOW() WHERE website_id IS NULL ORDER BY id LIMIT 1")).affectedRows).toBe(1)
    const [blanked] = await q('SELECT call_log_id FROM call_logs WHERE website_id = ? AND crm_lead_id IS NULL ORDER BY id LIMIT 1', [visibleStores[2].id])
    await q("UPDATE call_logs SET crm_lead_id = ' ', updated_at = NOW() WHERE call_log_id = ?", [blanked.call_log_id])
    await q('DELETE FROM call_logs WHERE call_log_id = ?', [gone.call_log_id])
    const mark = (db.$client.query("SELECT value FROM meta WHERE key = 'watermark:call_logs'").get() as { value: string }).value
    await q(`INSERT INTO call_logs (id, call_log_id, website_id, caller_number, call_start_time, duration_seconds, did_number, event_type, substatus, created_at, updated_at)
      VALUES (95000001, 'LATE-FEED-1', ?, '9000000001', CAST(? AS DATETIME) - INTERVAL 200 SECOND, 30, '+91', 'ANSWERED', 'Answered', CAST(? AS DATETIME) - INTERVAL 200 SECOND, CAST(? AS DATETIME) - INTERVAL 200 SECOND)`,
      [visibleStores[2].id, mark, mark, mark])
    const run = await runSync(db, m.url)
    expect(run.full).toBe(false)
    expect(run.repaired).toBe(1) // the deleted call, found by the count gap

    const after = await history(t)
    const changed = new Set<string>()
    for (const id of new Set([...before.keys(), ...after.keys()])) {
      if (JSON.stringify(before.get(id)) !== JSON.stringify(after.get(id))) changed.add(id)
    }
    expect(after.has('LATE-FEED-1')).toBe(true)
    expect(before.has(gone.call_log_id) && !after.has(gone.call_log_id)).toBe(true)
    expect([...after.values()].some((c) => c.dealership_name === 'Renamed Showroom')).toBe(true)
    expect([...before.values()].some((c) => c.sap_code === deactivated)).toBe(true)

    const walked = await walk(t, cursor, copy)
    const listed = walked.items.map((i) => i.call_log_id)
    expect(listed).not.toContain(blanked.call_log_id)
    expect(new Set(listed).size).toBe(listed.length) // each once, at its latest position
    // every changed call is listed; beyond them only deletes of new calls no copy ever held
    for (const id of changed) expect(listed).toContain(id)
    const extra = walked.items.filter((i) => !changed.has(i.call_log_id))
    for (const item of extra) {
      expect(item.change).toBe('delete')
      expect(known.has(item.call_log_id)).toBe(false)
    }
    expect(extra.length).toBeLessThan(changed.size / 10)
    expect(sorted(copy)).toEqual(sorted(after))
  }, 60_000)

  test('a sync that commits while a partner is mid-walk loses nothing', async () => {
    const m = await seededMaster()
    const { t } = await syncedStore(m)
    const copy: Copy = new Map()
    const part = await walk(t, null, copy, { limit: 700, answers: 3 })
    expect(part.done).toBe(false)
    await applyDayOfChanges(m.master, { seed: 9, changes: dayOfChangesAt(SCALE) })
    // change calls the partner has already passed and calls it has not reached yet
    await m.master.query("UPDATE call_logs SET crm_lead_id = CONCAT('MID-', id), updated_at = NOW() WHERE id % 97 = 0")
    await runSync(t.db, m.url)
    const rest = await walk(t, part.cursor, copy)
    expect(rest.done).toBe(true)
    expect(sorted(copy)).toEqual(sorted(await history(t)))
    expect([...copy.values()].filter((c) => String(c.crm_lead_id).startsWith('MID-')).length).toBeGreaterThan(50)
  }, 60_000)

  test('re-reading the look-back window moves nothing', async () => {
    const m = await seededMaster()
    const { db, t } = await syncedStore(m)
    const { cursor } = await walk(t, null, new Map())
    // rows whose updated_at moves while their content stays: sync reads them again
    await m.master.query('UPDATE call_logs SET updated_at = NOW() WHERE id % 10 = 0')
    const reread = await runSync(db, m.url)
    expect(reread.tables.call_logs.read).toBeGreaterThan(900)
    expect(reread.tables.call_logs.written).toBe(0)
    await runSync(db, m.url) // and once more, inside the look-back of the first
    const r = await ask(t, '/listing/changes', { cursor })
    expect(r).toMatchObject({ returned: 0, has_more: false, next_cursor: cursor })
  }, 60_000)

  test('a restart, and a second replica syncing the same master, accept the same cursors', async () => {
    const m = await seededMaster()
    const a = await syncedStore(m)
    const b = await syncedStore(m)
    const copy: Copy = new Map()
    const first = await walk(a.t, null, copy)

    // runs are numbered by the master's clock in seconds: let the next ones fall in later seconds.
    // b takes the day's changes first, a a second later: b numbers them before a's cursor
    await Bun.sleep(1100)
    await applyDayOfChanges(m.master, { seed: 13, changes: dayOfChangesAt(SCALE) })
    await runSync(b.db, m.url)
    await Bun.sleep(1100)
    await runSync(a.db, m.url)
    const mid = await walk(a.t, first.cursor, copy, { limit: 100, answers: 1 })
    expect(mid.done).toBe(false)

    // replica b's last run is older than a's, which the cursor has seen: b lists nothing yet
    const behind = await ask(b.t, '/listing/changes', { cursor: mid.cursor, limit: 1000 })
    expect(behind).toMatchObject({ http: 200, returned: 0, has_more: false, next_cursor: mid.cursor })

    // once b has run again (with nothing new), a's cursor resumes on b, and the copy equals b's call history
    await Bun.sleep(1100)
    await runSync(b.db, m.url)
    const onB = await walk(b.t, mid.cursor, copy)
    expect(onB.done).toBe(true)
    const wantB = await history(b.t)
    expect(sorted(copy)).toEqual(sorted(wantB))
    expect(sorted(await history(a.t))).toEqual(sorted(wantB))

    // a restarted server over a's store takes b's cursor, and a's own
    a.db.$client.close()
    const restarted = appOf(openStore(a.db.$client.filename))
    await Bun.sleep(1100)
    await m.master.query("UPDATE call_logs SET recording_url = CONCAT('https://r/', id), updated_at = NOW() WHERE id % 101 = 0")
    await runSync(restarted.db, m.url)
    await runSync(b.db, m.url)
    const resumed = await walk(restarted, onB.cursor, copy)
    expect(resumed.done).toBe(true)
    expect(sorted(copy)).toEqual(sorted(await history(restarted)))
    const own = await ask(restarted, '/listing/changes', { cursor: resumed.cursor })
    expect(own).toMatchObject({ http: 200, returned: 0, has_more: false })

    // a cursor sealed under another secret was not issued by this service
    const foreign = appOver(restarted.db, 'd'.repeat(32), 'https://i/').deps.changesCursors.seal({ origin: '00', after: null, base: 0, head: 0 })
    expect(await ask(restarted, '/listing/changes', { cursor: foreign })).toEqual({ http: 400, code: 400, status: false, message: 'Invalid cursor' })
  }, 90_000)
})
