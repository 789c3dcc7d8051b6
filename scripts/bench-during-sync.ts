// Serving while serve's own schedule syncs: a product-filter request every
// 20 ms against `serve --sync-interval`, while its scheduled run does a first
// full load of the master, then one day of changes (50,000 new calls, 5,000
// changed, 10,000 revised listing rows). Reports p50, p99 and max latency.
//   bun scripts/bench-during-sync.ts --url mysql://root@127.0.0.1:3306/bench01 [--db-path F] [--workers N] [--skip-full]
import { rmSync } from 'node:fs'
import { parseFlags } from './bench/args'
import { connectMaster } from '../src/sync/master'
import { formatStats, probe, READY, startServe, SYNC_ENDED } from './bench/probe'
import { BENCH_SERVE_ENV } from './bench/scenarios'
import { applyDayOfChanges, benchKey, dayOfChangesAt } from './seed-master'

const { flags } = parseFlags(process.argv.slice(2))
const url = flags.get('--url') ?? 'mysql://root@127.0.0.1:3306/bench01'
const dbPath = flags.get('--db-path') ?? '/tmp/listing-bench-during-sync.sqlite'
const workers = flags.get('--workers')
const PORT = 18_091
const env = { ...BENCH_SERVE_ENV, LOG_LEVEL: 'info' } // its lines say when the run ends
const args = ['--db-path', dbPath, '--mysql-url', url, '--sync-interval', '86400', ...(workers ? ['--workers', workers] : [])]

/** Starts serve (whose schedule syncs at once) and probes it until the run has ended, and one second more. */
export async function duringScheduledSync(label: string): Promise<void> {
  const serve = await startServe(args, env, PORT)
  const ended = serve.waitFor(SYNC_ENDED).then((line) => Bun.sleep(1000).then(() => line))
  const result = await probe(`http://127.0.0.1:${PORT}/products/filter`, { 'x-api-key': benchKey(2) }, '{"limit":20}', ended, { since: serve.waitFor(READY) })
  const outcome = JSON.parse(await ended)
  await serve.stop()
  console.log(`${label} (${workers ?? 'default'} workers): sync ${outcome.msg === 'sync ok' ? `ok in ${(outcome.ms / 1000).toFixed(1)} s, phases ${JSON.stringify(outcome.phases ?? null)}` : `failed: ${outcome.error}`}; probe: ${formatStats(result)}`)
}

if (!flags.has('--skip-full')) {
  for (const s of ['', '-wal', '-shm']) rmSync(`${dbPath}${s}`, { force: true })
  await duringScheduledSync('first full load')
}
const master = await connectMaster(url)
const changes = dayOfChangesAt(1)
await applyDayOfChanges(master, { seed: Date.now() % 1000, changes })
await master.end()
await duringScheduledSync(`one day of changes ${JSON.stringify(changes)}`)
