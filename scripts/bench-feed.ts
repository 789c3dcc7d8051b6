// The change feed's write and read costs on a bench store (issue 13):
// - a store's face changing (renamed, deleted, its dealer deactivated) moves all
//   its calls: the biggest store's move, and ten stores' at once for a per-call rate;
// - the size of the position index;
// - one answer of 1000 items, in process, at several depths of a walk from the beginning.
// Works on a copy; the store given is not changed.
//   bun scripts/bench-feed.ts [--db-path /tmp/listing-bench-sync-0.1.sqlite]
import { copyFileSync, rmSync } from 'node:fs'
import { parseFlags } from './bench/args'
import { median } from './bench/probe'
import { feedItems, feedRows, moveCallsOfChangedStores, openFeedSeq } from '../src/store/feed'
import { openStore } from '../src/store/open'

const { flags } = parseFlags(process.argv.slice(2))
const source = flags.get('--db-path') ?? '/tmp/listing-bench-sync-0.1.sqlite'
const copy = '/tmp/listing-bench-feed-copy.sqlite'
for (const s of ['', '-wal', '-shm']) rmSync(`${copy}${s}`, { force: true })
copyFileSync(source, copy)
const db = openStore(copy, { migrate: false })
const client = db.$client

const calls = (client.query('SELECT count(*) AS n FROM calls').get() as { n: number }).n
const biggest = client.query('SELECT c.website_id, count(*) AS n FROM stores s JOIN calls c ON c.website_id = s.website_id GROUP BY c.website_id ORDER BY n DESC LIMIT 10').all() as { website_id: number; n: number }[]

/** Moves the calls of `ids` as a run would when their stores' faces change; rolled back. Milliseconds. */
function moveOnce(ids: number[]): { ms: number; moved: number } {
  client.run('BEGIN IMMEDIATE')
  const seq = openFeedSeq(client, '2099-01-01 00:00:00')
  const before = new Map(ids.map((id) => [id, 'before']))
  const after = new Map(ids.map((id) => [id, 'after']))
  const t0 = performance.now()
  const moved = moveCallsOfChangedStores(client, before, after, seq)
  const ms = performance.now() - t0
  client.run('ROLLBACK')
  return { ms, moved }
}

const lines: string[] = []
const say = (l: string) => (lines.push(l), console.log(l))
say(`Store: ${calls.toLocaleString('en')} calls (${source}).`)
for (const [label, ids] of [['the biggest store', [biggest[0].website_id]], ['the ten biggest stores at once', biggest.map((b) => b.website_id)]] as const) {
  const runs = Array.from({ length: 5 }, () => moveOnce([...ids]))
  const ms = median(runs.map((r) => r.ms))
  const moved = runs[0].moved
  say(`Moving ${label} (${moved.toLocaleString('en')} calls): ${ms.toFixed(1)} ms median of 5 (first, cold: ${runs[0].ms.toFixed(1)} ms), ${((ms * 1000) / moved).toFixed(2)} µs a call.`)
}

try {
  const sizes = client.query("SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name IN ('calls', 'calls_store', 'calls_feed', 'calls_call_log_id', 'calls_mobile') GROUP BY name ORDER BY bytes DESC").all() as { name: string; bytes: number }[]
  say(`On disk: ${sizes.map((s) => `${s.name} ${(s.bytes / 1e6).toFixed(0)} MB`).join(', ')}; the position index is ${(sizes.find((s) => s.name === 'calls_feed')!.bytes / calls).toFixed(1)} bytes a call.`)
} catch {
  say('dbstat is not compiled into this SQLite: index sizes not measured.')
}

// one answer's read at several depths: the same cost at the start and deep in the walk
const positions = client.query('SELECT feed_seq, call_log_id FROM calls INDEXED BY calls_feed ORDER BY feed_seq, call_log_id').all() as { feed_seq: number; call_log_id: string }[]
for (const depth of [0, 0.5, 0.99]) {
  const p = positions[Math.floor(depth * (positions.length - 1))]
  const times: number[] = []
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now()
    client.transaction(() => JSON.stringify(feedItems(db, feedRows(db, { after: { seq: p.feed_seq, callLogId: p.call_log_id } }, 1001))))()
    times.push(performance.now() - t0)
  }
  say(`1000 feed rows read and rendered at ${Math.round(depth * 100)}% of a walk from the beginning: ${median(times).toFixed(2)} ms median of 20.`)
}
client.close()
for (const s of ['', '-wal', '-shm']) rmSync(`${copy}${s}`, { force: true })
