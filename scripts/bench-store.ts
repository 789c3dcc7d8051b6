// In-process time per request (app.handle, no HTTP) on a synced read store,
// such as the one bun run bench syncs: where an answer's time goes before the
// network. Not a test: a quick look, request by request.
//   bun scripts/bench-store.ts [--db-path /tmp/bench01.sqlite] [--n 200]
import { loadConfig } from '../src/config'
import { createApp } from '../src/http/app'
import { apiDeps } from '../src/http/context'
import { openStore } from '../src/store/open'
import { parseFlags } from './bench/args'
import { benchKey } from './seed-master'

const { flags } = parseFlags(process.argv.slice(2))
const db = openStore(flags.get('--db-path') ?? '/tmp/bench01.sqlite', { readonly: true, migrate: false })
const N = Number(flags.get('--n') ?? 200)
const deps = apiDeps(db, loadConfig({ RATE_LIMIT_PER_MIN: '0' }), 'bench-storelookup-secret-0123456789abcdef', { expectSync: true })
const app = createApp(deps)
const post = (path: string, body: object) =>
  app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'x-api-key': benchKey(2) }, body: JSON.stringify(body) }))

async function time(label: string, path: string, body: object) {
  const res = await post(path, body)
  const json: any = await res.json()
  if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(json)}`)
  const t0 = performance.now()
  for (let i = 0; i < N; i++) await (await post(path, body)).arrayBuffer()
  const us = ((performance.now() - t0) / N) * 1000
  const info = json.paging ? `total ${json.paging.total_records}, page ${json.paging.page}/${json.paging.total_pages}` : `${json.data?.length ?? ''} rows`
  console.log(`${label.padEnd(44)} ${us.toFixed(0).padStart(6)} µs   ${info}`)
  return json
}

const last = (db.$client.query('SELECT max(day) AS d FROM call_days').get() as { d: string }).d
const YEAR = { from_date: `${Number(last.slice(0, 4)) - 1}${last.slice(4)}`, to_date: last }
const store = (db.$client.query('SELECT website_id FROM stores WHERE visible = 1 ORDER BY website_id LIMIT 1 OFFSET 20').get() as { website_id: number }).website_id
const token = deps.storelookup.seal(2, store)
const first = await time('history, year, page 1', '/listing/listingtiles', YEAR)
await time('history, year, last page', '/listing/listingtiles', { ...YEAR, page: first.paging.total_pages })
await time('history, one day, page 1', '/listing/listingtiles', { from_date: last, to_date: last })
await time('history, year, missed, page 1', '/listing/listingtiles', { ...YEAR, substatus: 'missed' })
await time('history, year, sap_code, page 1', '/listing/listingtiles', { ...YEAR, sap_code: 'SAP000021' })
await time('call log, year, 500 rows', '/listing/calls', { ...YEAR, storelookup: token, limit: 500 })
await time('dealer lookup, year', '/listing/dealer', { ...YEAR, sap_code: 'SAP000021' })
await time('employee lookup, 150 dealers, year', '/listing/employee', { ...YEAR, emp_code: 'EMP00001' })
await time('day-wise, 366 days', '/listing/daywise', { ...YEAR, storelookup: token, limit: 366 })
await time('products, no filter', '/products/filter', {})
