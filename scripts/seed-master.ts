// Fills a MySQL/MariaDB database with a synthetic master (master-schema.sql) at
// any scale, deterministic by seed, with the contract's quirks: blank and NULL
// names, one caller under several spellings, recording and CRM fields filled in
// later, deleted and orphan stores, NULL and unknown website_id, inactive dealers
// and employees, revoked keys, relative and absolute image paths, colours with a
// trailing space. --scale 1 is master-contract.md §3's production size.
// --day-of-changes applies one day of writes to an existing master instead.
//
//   bun scripts/seed-master.ts --url mysql://root@127.0.0.1:3306/test --scale 0.01 [--seed 1]
//   bun scripts/seed-master.ts --url ... --day-of-changes [--seed 2]
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import { parseFlags } from './bench/args'
import { rng } from '../db/fixtures/rng'
import { connectMaster, queryRows, type Master } from '../src/sync/master'

export const SCHEMA_SQL = readFileSync(join(import.meta.dir, '../db/master/master-schema.sql'), 'utf8')
export const DATA_END = '2026-10-31' // the last day with calls and listing rows
const DAYS = 730
/** Keys of the generated integrations: bench-key-1 … (the master keeps only their SHA-256). */
export const benchKey = (n: number) => `bench-key-${n}`

const pad = (n: number, w = 2) => String(n).padStart(w, '0')
const dayMs = 86_400_000
const endMs = Date.UTC(2026, 9, 31)
/** The newest updated_at of a fresh master: the last second of DATA_END. */
const lastMs = endMs + dayMs - 1000
/** Text of a wall-clock instant (no time zone involved: UTC arithmetic on IST text). */
const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

export async function createSchema(master: Master): Promise<void> {
  for (const t of ['call_logs', 'listing_daily_metrics', 'product_images', 'products', 'employee_dealers', 'employees', 'websites', 'dealer_master', 'api_integrations']) {
    await master.query(`DROP TABLE IF EXISTS ${t}`)
  }
  const statements = SCHEMA_SQL.replace(/--.*$/gm, '').split(';').map((s) => s.trim()).filter(Boolean)
  for (const stmt of statements) await master.query(stmt)
}

async function insert(master: Master, table: string, columns: string[], rows: Iterable<unknown[]>, batch = 2000): Promise<number> {
  let buf: unknown[][] = []
  let n = 0
  const flush = async () => {
    if (!buf.length) return
    await master.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ?`, [buf])
    n += buf.length
    buf = []
  }
  for (const row of rows) {
    buf.push(row as unknown[])
    if (buf.length >= batch) await flush()
  }
  await flush()
  return n
}

export interface Sizes {
  dealers: number
  stores: number
  employees: number
  employeeDealers: number
  calls: number
  products: number
  integrations: number
}

export function sizesAt(scale: number): Sizes {
  const at = (n: number, min: number) => Math.max(min, Math.round(n * scale))
  return {
    dealers: at(8000, 8),
    stores: at(10_000, 12),
    employees: at(2000, 4),
    employeeDealers: at(20_000, 12),
    calls: at(20_000_000, 200),
    products: at(20_000, 30),
    integrations: 20,
  }
}

const spellings = (m: string) => [`+91${m}`, `91${m}`, `0${m}`, m, `+91 ${m.slice(0, 5)} ${m.slice(5)}`]

export async function seedMaster(master: Master, { scale, seed = 1, log = () => {} }: { scale: number; seed?: number; log?: (m: string) => void }) {
  const rand = rng(seed)
  const size = sizesAt(scale)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]
  await createSchema(master)
  await master.query('SET unique_checks = 0')
  const created = stamp(endMs - DAYS * dayMs)

  await insert(master, 'api_integrations', ['id', 'name', 'api_key_sha256', 'is_active', 'created_at', 'updated_at'],
    Array.from({ length: size.integrations }, (_, i) => [i + 1, `Partner ${i + 1}`, sha(benchKey(i + 1)), i >= size.integrations - 3 ? 0 : 1, created, created]))

  const sap = (i: number) => `SAP${pad(i, 6)}`
  await insert(master, 'dealer_master', ['id', 'sap_code', 'dealer_name', 'is_active', 'created_at', 'updated_at'],
    Array.from({ length: size.dealers }, (_, i) => {
      const r = rand()
      const name = r < 0.02 ? null : r < 0.04 ? '  ' : `Dealer ${i + 1} Tiles`
      return [i + 1, sap(i + 1), name, i % 20 === 19 ? 0 : 1, created, created]
    }))

  const cities = [['Mumbai', 'Mumbai Suburban', 'Maharashtra'], ['Pune', 'Pune', 'Maharashtra'], ['Bengaluru', 'Bengaluru Urban', 'Karnataka'], ['Chennai', 'Chennai', 'Tamil Nadu'], ['Delhi', 'New Delhi', 'Delhi'], ['Ahmedabad', 'Ahmedabad', 'Gujarat'], ['Kolkata', 'Kolkata', 'West Bengal'], ['Jaipur', 'Jaipur', 'Rajasthan']]
  await insert(master, 'websites', ['id', 'sap_code', 'store_name', 'city', 'district', 'state', 'country', 'pincode', 'is_deleted', 'created_at', 'updated_at'],
    Array.from({ length: size.stores }, (_, i) => {
      const id = i + 1
      // most dealers have one store, some several; every 100th store is an orphan
      const sapCode = id % 100 === 50 ? `SAP9${pad(id, 6)}` : sap((i % size.dealers) + 1)
      const [city, district, state] = pick(cities)
      const r = rand()
      const name = r < 0.1 ? null : r < 0.13 ? '' : `${city} Showroom ${id}`
      const missing = rand() < 0.05
      return [id, sapCode, name, missing ? null : city, missing ? null : district, missing ? null : state, 'India', missing ? null : String(400000 + id).slice(0, 6), id % 50 === 7 ? 1 : 0, created, created]
    }))

  await insert(master, 'employees', ['emp_code', 'emp_name', 'sales_office', 'role', 'is_active', 'updated_at'],
    Array.from({ length: size.employees }, (_, i) => [`EMP${pad(i + 1, 5)}`, `Employee ${i + 1}`, pick(cities)[0], pick(['Sales Officer', 'Area Manager', 'Regional Head']), i % 25 === 24 ? 0 : 1, created]))
  // EMP00001 looks after 150 dealers (the benchmark's large employee); the rest about ten each
  const pairs = new Set<string>()
  for (let d = 1; d <= Math.min(150, size.dealers); d++) pairs.add(`EMP00001|${sap(d)}`)
  while (pairs.size < size.employeeDealers) pairs.add(`EMP${pad(2 + Math.floor(rand() * (size.employees - 1)), 5)}|${sap(1 + Math.floor(rand() * size.dealers))}`)
  await insert(master, 'employee_dealers', ['emp_code', 'sap_code', 'updated_at'], [...pairs].map((p) => [...p.split('|'), created]))

  // listing rows: every store, every day of two years but a few, revised up to 3 days later
  log('listing_daily_metrics')
  let metricRows = 0
  for (let s = 1; s <= size.stores; s++) {
    const rows: unknown[][] = []
    const base = 20 + Math.floor(rand() * 200)
    for (let d = 0; d < DAYS; d++) {
      if (rand() < 0.03) continue
      const ms = endMs - (DAYS - 1 - d) * dayMs
      const n = () => Math.floor(rand() * base)
      rows.push([s, dayText(ms), n(), n() * 2, n(), n() * 2, Math.floor(n() / 10), Math.floor(n() / 15), Math.floor(n() / 12), Math.floor(n() / 40), stamp(Math.min(lastMs, ms + dayMs + Math.floor(rand() * 3) * dayMs + 3600_000))])
    }
    metricRows += await insert(master, 'listing_daily_metrics', ['website_id', 'metric_date', 'desktop_search_impressions', 'mobile_search_impressions', 'desktop_maps_impressions', 'mobile_maps_impressions', 'website_clicks', 'call_clicks', 'direction_requests', 'business_bookings', 'updated_at'], rows, 5000)
  }

  log('call_logs')
  const callers = Math.max(50, Math.floor(size.calls / 4))
  const callRows = function* () {
    for (let i = 1; i <= size.calls; i++) {
      // calls spread over the two years, a little denser lately, in time order
      const frac = Math.sqrt(i / size.calls)
      const ms = endMs - DAYS * dayMs + Math.floor(frac * DAYS * dayMs) + Math.floor(rand() * 60_000)
      const r = rand()
      const substatus = r < 0.6 ? 'Answered' : r < 0.9 ? 'Missed' : 'Offline'
      const w = rand()
      const websiteId = w < 0.005 ? null : w < 0.01 ? 99_999_999 : 1 + Math.floor(rand() * size.stores)
      // a caller pool with a long tail: a few callers ring often
      const caller = String(7_000_000_000 + Math.floor(Math.pow(rand(), 3) * callers))
      const duration = substatus === 'Answered' ? 5 + Math.floor(rand() * 900) : 0
      const later = rand()
      const filled = ms + 600_000 + Math.floor(rand() * 2 * dayMs)
      const updated = later < 0.7 ? Math.min(filled, lastMs) : ms
      yield [
        i, `CL${pad(i, 10)}`, websiteId, pick(spellings(caller)), stamp(ms), duration, `+9180${pad(1 + ((websiteId ?? 0) % 99_999), 6)}`,
        substatus === 'Answered' ? 'ANSWERED' : substatus === 'Missed' ? 'MISSED' : 'NOANSWER', substatus,
        later < 0.7 && substatus === 'Answered' ? `https://recordings.example.com/${i}.mp3` : later < 0.75 ? '' : null,
        later < 0.5 ? `LEAD-${i}` : null, later < 0.5 ? stamp(filled) : null, stamp(ms), stamp(updated),
      ]
    }
  }
  const callCount = await insert(master, 'call_logs', ['id', 'call_log_id', 'website_id', 'caller_number', 'call_start_time', 'duration_seconds', 'did_number', 'event_type', 'substatus', 'recording_url', 'crm_lead_id', 'crm_synced_at', 'created_at', 'updated_at'], callRows(), 5000)

  const colours = ['White', 'Ivory', 'Grey', 'Beige', 'Black', 'Blue', 'White ']
  await insert(master, 'products', ['id', 'sku', 'name', 'description', 'color', 'finish', 'series', 'size', 'surface', 'product_range', 'texture', 'status', 'created_at', 'updated_at'],
    Array.from({ length: size.products }, (_, i) => [
      i + 1, `SKU-${pad(i + 1, 6)}`, `Tile ${i + 1}`, i % 9 ? `Tile number ${i + 1}` : null, i % 31 ? pick(colours) : null,
      pick(['Glossy', 'Matt', 'Satin', 'Rustic']), pick(['Marmo', 'Legno', 'Urban', 'Stone Age', 'Classic']), pick(['600x600', '600x1200', '300x600', '800x800', '1200x1800']),
      pick(['Floor', 'Wall', 'Outdoor']), pick(['Premium', 'Everyday', 'Signature']), pick(['Marble', 'Wood', 'Stone', 'Concrete']), i % 20 === 19 ? 0 : 1, created, created,
    ]))
  await insert(master, 'product_images', ['id', 'product_id', 'image_path', 'sort_order', 'updated_at'],
    Array.from({ length: size.products * 4 }, (_, i) => {
      const p = 1 + (i % size.products)
      const k = Math.floor(i / size.products)
      return [i + 1, p, rand() < 0.3 ? `https://cdn.example.com/legacy/${p}/${k}.jpg` : `tiles/${p}/${k}.jpg`, 4 - k, created]
    }), 5000)
  return { ...size, calls: callCount, metrics: metricRows }
}

export interface DayOfChanges {
  newCalls: number
  updatedCalls: number
  revisedMetrics: number
}

export const dayOfChangesAt = (scale: number): DayOfChanges => ({
  newCalls: Math.max(20, Math.round(50_000 * scale)),
  updatedCalls: Math.max(5, Math.round(5_000 * scale)),
  revisedMetrics: Math.max(10, Math.round(10_000 * scale)),
})

/**
 * One day of writes after the newest row: new calls of that day (some
 * committed "late", with an updated_at a little behind), recordings and CRM
 * fields filled in on earlier calls, corrected substatus, revised and new
 * listing rows, and a few deletes and flag changes in the small tables.
 */
export async function applyDayOfChanges(master: Master, { seed = 2, changes }: { seed?: number; changes: DayOfChanges }) {
  const rand = rng(seed)
  const [{ maxId, maxUpdated, stores, dealers }] = await queryRows<{ maxId: number; maxUpdated: string; stores: number; dealers: number }>(master,
    `SELECT (SELECT max(id) FROM call_logs) AS maxId, (SELECT DATE_FORMAT(GREATEST(max(updated_at), (SELECT max(updated_at) FROM listing_daily_metrics)), '%Y-%m-%d %H:%i:%s') FROM call_logs) AS maxUpdated,
            (SELECT max(id) FROM websites) AS stores, (SELECT count(*) FROM dealer_master) AS dealers`)
  // the day after the newest write of any kind, so every change is newer than what a sync has seen
  const dayStart = Date.parse(`${maxUpdated.slice(0, 10)}T00:00:00Z`) + dayMs
  const at = (frac: number) => stamp(dayStart + Math.floor(frac * (dayMs - 1000)))
  const callers = Math.max(50, Math.floor(Number(maxId) / 4))
  const rows: unknown[][] = []
  for (let i = 1; i <= changes.newCalls; i++) {
    const id = Number(maxId) + i
    const t = at(i / (changes.newCalls + 1))
    const r = rand()
    const substatus = r < 0.6 ? 'Answered' : r < 0.9 ? 'Missed' : 'Offline'
    const websiteId = rand() < 0.01 ? null : 1 + Math.floor(rand() * stores)
    const caller = String(7_000_000_000 + Math.floor(Math.pow(rand(), 3) * callers))
    rows.push([id, `CL${pad(id, 10)}`, websiteId, pick(spellings(caller), rand), t, substatus === 'Answered' ? 5 + Math.floor(rand() * 900) : 0, '+918000000000', 'X', substatus, null, null, null, t, t])
  }
  await insert(master, 'call_logs', ['id', 'call_log_id', 'website_id', 'caller_number', 'call_start_time', 'duration_seconds', 'did_number', 'event_type', 'substatus', 'recording_url', 'crm_lead_id', 'crm_synced_at', 'created_at', 'updated_at'], rows)
  // later fills and corrections on recent calls
  for (let i = 0; i < changes.updatedCalls; i++) {
    const id = Math.max(1, Number(maxId) - Math.floor(rand() * Math.min(Number(maxId), changes.newCalls * 3)))
    const t = at(0.5 + rand() / 2)
    if (i % 10 === 0) await master.query(`UPDATE call_logs SET substatus = 'Missed', duration_seconds = 0, updated_at = ? WHERE id = ?`, [t, id])
    else await master.query(`UPDATE call_logs SET recording_url = ?, crm_lead_id = ?, crm_synced_at = ?, updated_at = ? WHERE id = ?`, [`https://recordings.example.com/${id}.mp3`, `LEAD-${id}`, t, t, id])
  }
  // the provider revises the last few days and adds the new day
  const revised: unknown[][] = []
  for (let i = 0; i < changes.revisedMetrics; i++) {
    const s = 1 + Math.floor(rand() * stores)
    const d = dayText(dayStart - Math.floor(rand() * 4) * dayMs)
    const n = () => Math.floor(rand() * 100)
    revised.push([s, d, n(), n(), n(), n(), n(), n(), n(), n(), at(rand())])
  }
  await master.query(`INSERT INTO listing_daily_metrics (website_id, metric_date, desktop_search_impressions, mobile_search_impressions, desktop_maps_impressions, mobile_maps_impressions, website_clicks, call_clicks, direction_requests, business_bookings, updated_at) VALUES ?
    ON DUPLICATE KEY UPDATE desktop_search_impressions = VALUES(desktop_search_impressions), mobile_search_impressions = VALUES(mobile_search_impressions),
      desktop_maps_impressions = VALUES(desktop_maps_impressions), mobile_maps_impressions = VALUES(mobile_maps_impressions), website_clicks = VALUES(website_clicks),
      call_clicks = VALUES(call_clicks), direction_requests = VALUES(direction_requests), business_bookings = VALUES(business_bookings), updated_at = VALUES(updated_at)`, [revised])
  // small tables: a store deleted, a dealer deactivated and renamed, an image and a product gone, a key revoked
  const t = at(0.9)
  await master.query('UPDATE websites SET is_deleted = 1, updated_at = ? WHERE id = ?', [t, 1 + Math.floor(rand() * stores)])
  await master.query('UPDATE dealer_master SET is_active = 1 - is_active, dealer_name = CONCAT(coalesce(dealer_name, ""), " (renamed)"), updated_at = ? WHERE id = ?', [t, 1 + Math.floor(rand() * dealers)])
  await master.query('DELETE FROM product_images WHERE id = (SELECT min(id) FROM (SELECT id FROM product_images) x)')
  await master.query('DELETE FROM employee_dealers WHERE emp_code = (SELECT max(emp_code) FROM (SELECT emp_code FROM employee_dealers) x) LIMIT 1')
  await master.query('UPDATE api_integrations SET is_active = 0, updated_at = ? WHERE id = 1', [t])
  return changes
}

function pick<T>(xs: readonly T[], rand: () => number): T {
  return xs[Math.floor(rand() * xs.length)]
}

if (import.meta.main) {
  const { flags } = parseFlags(process.argv.slice(2))
  const url = flags.get('--url') ?? process.env.MYSQL_URL
  if (!url) throw new Error('give --url mysql://user:pass@host:port/db (or MYSQL_URL)')
  const seed = Number(flags.get('--seed') ?? 1)
  const scale = Number(flags.get('--scale') ?? 1)
  const master = await connectMaster(url)
  const t0 = performance.now()
  if (flags.has('--day-of-changes')) {
    const done = await applyDayOfChanges(master, { seed, changes: dayOfChangesAt(scale) })
    console.log(`applied a day of changes: ${JSON.stringify(done)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  } else {
    const done = await seedMaster(master, { scale, seed, log: (m) => console.log(`seeding ${m}...`) })
    console.log(`seeded ${JSON.stringify(done)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  }
  await master.end()
}
