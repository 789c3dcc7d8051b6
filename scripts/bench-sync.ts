// Sync figures: a full load of a master at --scale, then one day of changes
// and the incremental run that follows. Each sync runs as its own process
// (as an operator would run it) and reports its peak RSS.
//   bun scripts/bench-sync.ts --scale 1 [--url mysql://root@127.0.0.1:3306/listing_bench_1] [--reuse]
// --reuse keeps an already seeded master at that URL instead of seeding it again.
// --through-wal holds a connection open on the store during the full load, as a running serve
// does, so the load goes through the WAL instead of writing the file directly (store/syncRun.ts).
import { rmSync } from 'node:fs'
import { parseFlags } from './bench/args'
import { closeStore, openStore } from '../src/store/open'
import { connectMaster, queryRows } from '../src/sync/master'
import { applyDayOfChanges, dayOfChangesAt, seedMaster } from './seed-master'

const { flags } = parseFlags(process.argv.slice(2))
const scale = Number(flags.get('--scale') ?? 1)
const url = flags.get('--url') ?? `mysql://root@127.0.0.1:3306/listing_bench_${String(scale).replace('.', '_')}`
const dbPath = flags.get('--db-path') ?? `/tmp/listing-bench-sync-${scale}.sqlite`

const target = new URL(url)
const admin = await connectMaster(`${target.protocol}//${target.username ? `${target.username}@` : ''}${target.host}/`)
const dbName = target.pathname.slice(1)
await admin.query(`CREATE DATABASE IF NOT EXISTS ${dbName}`)
await admin.end()
const master = await connectMaster(url)
if (!flags.has('--reuse')) {
  const t0 = performance.now()
  await seedMaster(master, { scale, seed: 1, log: (m) => console.log(`seeding ${m}...`) })
  console.log(`seeded the master in ${((performance.now() - t0) / 1000).toFixed(0)} s`)
}
const [{ n: rows }] = await queryRows<{ n: number }>(master, `SELECT sum(table_rows) AS n FROM information_schema.tables WHERE table_schema = ?`, [dbName])

async function sync(label: string): Promise<string> {
  const t0 = performance.now()
  const proc = Bun.spawn([process.execPath, 'src/main.ts', 'sync', '--db-path', dbPath, '--mysql-url', url], { stdout: 'pipe', stderr: 'inherit' })
  const out = await new Response(proc.stdout).text()
  if ((await proc.exited) !== 0) throw new Error(`${label} failed`)
  const seconds = (performance.now() - t0) / 1000
  console.log(`${label}: ${seconds.toFixed(1)} s wall, ${out.trim()}`)
  return out
}

for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${dbPath}${suffix}`, { force: true })
const holder = flags.has('--through-wal') ? openStore(dbPath) : undefined
const full = await sync(holder ? 'full load (through the WAL)' : 'full load')
if (holder) closeStore(holder)
const read = Number(/(\d+) rows read/.exec(full)![1])
const seconds = Number(/, ([\d.]+) s,/.exec(full)![1])
console.log(`full load: ${read} rows in ${seconds} s = ${Math.round(read / seconds).toLocaleString('en')} rows/s (master holds about ${Number(rows).toLocaleString('en')} rows)`)
const changes = dayOfChangesAt(scale)
await applyDayOfChanges(master, { seed: 2, changes })
console.log(`applied one day of changes: ${JSON.stringify(changes)}`)
await sync('incremental')
await master.end()
