// What compression (decision 33) costs an answer: the time to compress real
// answers of the read store at --db-path with zstd and gzip at level 1 (what
// the service uses), and the bytes saved. The benchmark's clients do not ask
// for compression, so bun run bench does not include this cost.
//   bun scripts/bench-compression.ts [--db-path /tmp/bench01.sqlite]
import { loadConfig } from '../src/config'
import { createApp } from '../src/http/app'
import { apiDeps } from '../src/http/context'
import { openStore } from '../src/store/open'
import { parseFlags } from './bench/args'
import { BENCH_SECRET } from './bench/scenarios'
import { benchKey } from './seed-master'

const { flags } = parseFlags(process.argv.slice(2))
const db = openStore(flags.get('--db-path') ?? '/tmp/bench01.sqlite', { readonly: true, migrate: false })
const deps = apiDeps(db, loadConfig({ RATE_LIMIT_PER_MIN: '0' }), BENCH_SECRET, { expectSync: true })
const app = createApp(deps)
const lastDay = (db.$client.query('SELECT max(day) AS d FROM call_days').get() as { d: string }).d
const store = (db.$client.query('SELECT website_id FROM stores WHERE visible = 1 ORDER BY website_id LIMIT 1 OFFSET 20').get() as { website_id: number }).website_id
const token = deps.storelookup.seal(2, store)
const YEAR = { from_date: `${Number(lastDay.slice(0, 4)) - 1}${lastDay.slice(4)}`, to_date: lastDay }
const answers: [string, string, object][] = [
  ['dealer lookup', '/listing/dealer', { ...YEAR, sap_code: 'SAP000021' }],
  ['product filter, 20 products', '/products/filter', {}],
  ['call history, 50 rows', '/listing/listingtiles', YEAR],
  ['call history, 500 rows', '/listing/listingtiles', { ...YEAR, limit: 500 }],
  ['day-wise, 366 days', '/listing/daywise', { ...YEAR, storelookup: token, limit: 366 }],
  ['call log, 500 rows', '/listing/calls', { ...YEAR, storelookup: token, limit: 500 }],
]
const time = (f: () => unknown, n = 200) => {
  f()
  const t0 = performance.now()
  for (let i = 0; i < n; i++) f()
  return ((performance.now() - t0) / n) * 1000
}
console.log('| Answer | JSON | zstd | µs | gzip | µs |\n|---|---|---|---|---|---|')
for (const [name, path, body] of answers) {
  const res = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'x-api-key': benchKey(2) }, body: JSON.stringify(body) }))
  const bytes = new Uint8Array(await res.arrayBuffer())
  if (res.status !== 200) throw new Error(`${name}: ${res.status}`)
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
  const zstd = Bun.zstdCompressSync(bytes, { level: 1 })
  const gzip = Bun.gzipSync(bytes, { level: 1 })
  console.log(`| ${name} | ${kb(bytes.length)} | ${kb(zstd.length)} | ${time(() => Bun.zstdCompressSync(bytes, { level: 1 })).toFixed(0)} | ${kb(gzip.length)} | ${time(() => Bun.gzipSync(bytes, { level: 1 })).toFixed(0)} |`)
}
