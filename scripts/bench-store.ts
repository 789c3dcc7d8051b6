// In-process latency of the hot queries on a synthetic read store of a chosen
// size: page 1 against the last page, one day against one year. Not a test:
// a quick check that cost follows the page, not the data.
//   bun scripts/bench-store.ts --calls 2000000 [--db /tmp/bench.sqlite]
import { existsSync } from 'node:fs'
import { sha256Hex } from '../src/http/auth'
import { createApp } from '../src/http/app'
import { RateLimiter } from '../src/http/rateLimit'
import { parseFlags } from '../src/config'
import { openStore } from '../src/store/open'
import { mobileOf, refreshAll } from '../src/store/refresh'
import { createStorelookup } from '../src/storelookup'

const { flags } = parseFlags(process.argv.slice(2))
const CALLS = Number(flags.get('--calls') ?? 1_000_000)
const STORES = 10_000
const path = flags.get('--db') ?? `/tmp/listing-bench-${CALLS}.sqlite`
const KEY = 'bench-key'

if (!existsSync(path)) {
  const db = openStore(path)
  const c = db.$client
  let seed = 42
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
  const t0 = performance.now()
  c.transaction(() => {
    c.run(`INSERT INTO integrations (id, name, key_sha256, is_active) VALUES (1, 'Bench', '${sha256Hex(KEY)}', 1)`)
    const dealer = c.prepare('INSERT INTO dealers VALUES (?, ?, 1)')
    const store = c.prepare("INSERT INTO stores (website_id, sap_code, store_name, city, state, is_deleted) VALUES (?, ?, ?, 'City', 'State', 0)")
    for (let i = 1; i <= 8000; i++) dealer.run(`S${i}`, `Dealer ${i}`)
    for (let i = 1; i <= STORES; i++) store.run(i, `S${((i - 1) % 8000) + 1}`, `Store ${i}`)
    const call = c.prepare(`INSERT INTO calls (website_id, call_start_time, call_log_id, caller_number, mobile, duration_seconds,
      did_number, event_type, substatus, created_at) VALUES (?, ?, ?, ?, ?, ?, '+9180', 'X', ?, ?)`)
    const start = Date.UTC(2025, 0, 1) / 1000
    const span = 365 * 86400
    for (let i = 0; i < CALLS; i++) {
      const ts = new Date((start + Math.floor((i / CALLS) * span)) * 1000).toISOString().replace('T', ' ').slice(0, 19)
      const caller = `9${String(Math.floor(rand() * 2_000_000)).padStart(9, '0')}`
      const r = rand()
      call.run(1 + Math.floor(rand() * STORES), ts, `C${i}`, caller, mobileOf(caller), Math.floor(rand() * 300), r < 0.6 ? 'Answered' : r < 0.9 ? 'Missed' : 'Offline', ts)
    }
    const metric = c.prepare('INSERT INTO metrics (website_id, metric_date, desktop_search_impressions, mobile_search_impressions, desktop_maps_impressions, mobile_maps_impressions, website_clicks, call_clicks, direction_requests, business_bookings) VALUES (?, ?, 1, 2, 3, 4, 5, 6, 7, 8)')
    for (let s = 1; s <= 1000; s++) for (let d = 0; d < 365; d++) metric.run(s, new Date(Date.UTC(2025, 0, 1 + d)).toISOString().slice(0, 10))
    console.log(`inserted ${CALLS} calls in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    refreshAll(c)
  })()
  c.run('ANALYZE')
  console.log(`built ${path} in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  c.close()
}

const db = openStore(path)
const storelookup = createStorelookup('bench-secret-bench-secret-bench-secret')
const app = createApp({ db, storelookup, imageBaseUrl: '', rateLimiter: new RateLimiter(0, 1), staleAfterSeconds: 86_400, expectSync: false })
const post = (p: string, body: object) =>
  app.handle(new Request(`http://localhost${p}`, { method: 'POST', headers: { 'x-api-key': KEY }, body: JSON.stringify(body) }))

async function time(label: string, p: string, body: object, n = 200) {
  let res = await post(p, body)
  const json: any = await res.json()
  const t0 = performance.now()
  for (let i = 0; i < n; i++) await (await post(p, body)).arrayBuffer()
  const us = ((performance.now() - t0) / n) * 1000
  const info = json.paging ? `total ${json.paging.total_records}, page ${json.paging.page}/${json.paging.total_pages}` : `status ${res.status}`
  console.log(`${label.padEnd(44)} ${us.toFixed(0).padStart(6)} µs   ${info}`)
  return json
}

const YEAR = { from_date: '2025-01-01', to_date: '2025-12-31' }
const first = await time('history, year, page 1', '/listing/listingtiles', YEAR)
await time('history, year, last page', '/listing/listingtiles', { ...YEAR, page: first.paging.total_pages })
await time('history, one day, page 1', '/listing/listingtiles', { from_date: '2025-06-01', to_date: '2025-06-01' })
const missed = await time('history, year, missed, page 1', '/listing/listingtiles', { ...YEAR, substatus: 'missed' })
await time('history, year, missed, last page', '/listing/listingtiles', { ...YEAR, substatus: 'missed', page: missed.paging.total_pages })
await time('history, year, sap_code, page 1', '/listing/listingtiles', { ...YEAR, sap_code: 'S77' })
await time('history, year, storelookup', '/listing/listingtiles', { ...YEAR, storelookup: storelookup.seal(1, 500) })
await time('call log, year, 500 rows', '/listing/calls', { ...YEAR, storelookup: storelookup.seal(1, 500), limit: 500 })
await time('dealer lookup, year', '/listing/dealer', { ...YEAR, sap_code: 'S77' })
await time('day-wise, 366 days', '/listing/daywise', { ...YEAR, storelookup: storelookup.seal(1, 77), limit: 366 })
await time('products, no filter', '/products/filter', {})
