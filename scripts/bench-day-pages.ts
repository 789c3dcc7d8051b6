// The pages one incremental run writes, by B-tree: counted, not timed. On this
// shared machine the same day's run took 14–23 s on identical copies of a store,
// more than most layout changes move it; the pages a run writes do not move.
// Which B-tree owns each page comes from dbstat before the run; the run is
// stopped right after its commit (the test hook LISTING_API_HALT_AT=committed),
// before its checkpoint empties the WAL, so the WAL still holds a frame for each
// page the run wrote. The store is left committed, as after any run stopped there.
// Run it with no serve on the store.
//   bun scripts/bench-day-pages.ts [--db-path /tmp/listing-bench-sync-1.sqlite] [--url mysql://root@127.0.0.1:3306/listing_bench_1] [--seed 7]
// --seed applies one day of changes (seed-master's) to the master first.
import { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import { parseFlags } from './bench/args'
import { connectMaster } from '../src/sync/master'
import { applyDayOfChanges, dayOfChangesAt } from './seed-master'

const { flags } = parseFlags(process.argv.slice(2))
const dbPath = flags.get('--db-path') ?? '/tmp/listing-bench-sync-1.sqlite'
const url = flags.get('--url') ?? 'mysql://root@127.0.0.1:3306/listing_bench_1'
if (!existsSync(dbPath)) throw new Error(`no store at ${dbPath}: load one first (bun scripts/bench-sync.ts)`)

// each page's B-tree, before the run (pages the run adds past the end, or takes from the freelist, have none)
const store = new Database(dbPath, { readonly: true })
if (!store.query("SELECT 1 FROM meta WHERE key = 'watermark:call_logs'").get()) throw new Error('the store has had no full load: its next run would not be incremental')
const names: string[] = []
const nameIds = new Map<string, number>()
const owners = new Map<number, number>()
for (const { name, pageno } of store.query('SELECT name, pageno FROM dbstat').iterate() as Iterable<{ name: string; pageno: number }>) {
  let id = nameIds.get(name)
  if (id === undefined) nameIds.set(name, (id = names.push(name) - 1))
  owners.set(pageno, id)
}
store.close()

if (flags.has('--seed')) {
  const master = await connectMaster(url)
  await applyDayOfChanges(master, { seed: Number(flags.get('--seed')), changes: dayOfChangesAt(1) })
  await master.end()
}

const t0 = performance.now()
const proc = Bun.spawn([process.execPath, 'src/main.ts', 'sync', '--db-path', dbPath, '--mysql-url', url], {
  env: { ...process.env, LISTING_API_HALT_AT: 'committed' },
  stdout: 'inherit',
  stderr: 'ignore',
})
await proc.exited
const seconds = (performance.now() - t0) / 1000

// the WAL's frames of this generation: those with the header's salts (a frame is 24 bytes of header, then the page)
const wal = new Uint8Array(await Bun.file(`${dbPath}-wal`).arrayBuffer())
if (wal.length < 32) throw new Error('the run left no WAL: did it stop at its commit?')
const view = new DataView(wal.buffer)
const pageSize = view.getUint32(8)
const [salt1, salt2] = [view.getUint32(16), view.getUint32(20)]
let frames = 0
const pages = new Set<number>()
for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
  if (view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break
  frames++
  pages.add(view.getUint32(at))
}
const byOwner = new Map<string, number>()
for (const page of pages) {
  const id = owners.get(page)
  const name = id === undefined ? '(new, or from the freelist)' : names[id]
  byOwner.set(name, (byOwner.get(name) ?? 0) + 1)
}
console.log(`one run, stopped at its commit after ${seconds.toFixed(1)} s: ${frames.toLocaleString('en')} WAL frames, ${pages.size.toLocaleString('en')} distinct pages of ${pageSize} bytes`)
console.log('| B-tree | pages written |\n|---|---|')
for (const [name, n] of [...byOwner].sort((a, b) => b[1] - a[1])) console.log(`| ${name} | ${n.toLocaleString('en')} |`)
