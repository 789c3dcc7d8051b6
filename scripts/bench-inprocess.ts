// In-process time per request (app.handle, no HTTP) over the benchmark's own
// scenarios and bodies (bench/scenarios.ts), on a synced read store opened as a
// serving worker opens it: where each answer's time goes before the network, and
// a side-by-side check of a change without wrk's noise on the other core.
// Not a test. With `bun --cpu-prof`, a profile of the scenarios run.
//   bun scripts/bench-inprocess.ts [--db-path /tmp/listing-bench-sync-1.sqlite] [--only 'name|name'] [--seconds 3] [--rounds 3]
// With --idle MS, each scenario's requests one at a time instead: the median back to back
// against the median after MS of idleness before each (what the bench's unloaded median meets:
// a request that finds the core idle), and the back-to-back p99 against its p50 (a collection
// lands on about one request in a hundred; docs/benchmarks.md, eighteenth session).
//   bun scripts/bench-inprocess.ts --idle 10 [--only 'name|name'] [--requests 2000]
import { onlyNamed, parseFlags } from './bench/args'
import { scenariosOf, servingApp } from './bench/inProcess'
import { median, stats } from './bench/probe'

const { flags } = parseFlags(process.argv.slice(2))
const dbPath = flags.get('--db-path') ?? '/tmp/listing-bench-sync-1.sqlite'
const seconds = Number(flags.get('--seconds') ?? 3)
const rounds = Number(flags.get('--rounds') ?? 3)

const chosen = onlyNamed(flags)
const scenarios = scenariosOf(dbPath, (s) => chosen(s.name))
const { app, requestOf } = await servingApp(dbPath)

if (flags.has('--idle')) {
  const idleMs = Number(flags.get('--idle'))
  const requests = Number(flags.get('--requests') ?? 2000)
  console.log(`| Scenario | median back to back, ms | median after ${idleMs} ms idle, ms | after idle / back to back | p99 back to back, ms | p99 / p50 |`)
  console.log('|---|---|---|---|---|---|')
  for (const s of scenarios) {
    const bodies = s.ours.map((b) => JSON.stringify(b))
    const one = async (i: number) => {
      const t0 = performance.now()
      await (await app.handle(requestOf(s.path, bodies[i % bodies.length]))).arrayBuffer()
      return performance.now() - t0
    }
    for (let i = 0; i < Math.max(500, bodies.length); i++) await one(i) // warm: JIT, the store's pages
    const hot: number[] = []
    for (let i = 0; i < requests; i++) hot.push(await one(i))
    const idle: number[] = []
    for (let i = 0; i < Math.min(requests, 400); i++) {
      await Bun.sleep(idleMs)
      idle.push(await one(i))
    }
    const { p50, p99 } = stats(hot, [])
    const idle50 = median(idle)
    console.log(`| ${s.name} | ${p50.toFixed(3)} | ${idle50.toFixed(3)} | ${(idle50 / p50).toFixed(2)}× | ${p99.toFixed(3)} | ${(p99 / p50).toFixed(1)}× |`)
  }
  process.exit(0)
}

console.log(`| Scenario | ${Array.from({ length: rounds }, (_, i) => `µs, round ${i + 1}`).join(' | ')} | answer KB |`)
console.log(`|---|${'---|'.repeat(rounds)}---|`)
for (const s of scenarios) {
  const bodies = s.ours.map((b) => JSON.stringify(b))
  let bytes = 0
  for (const body of bodies) {
    const res = await app.handle(requestOf(s.path, body))
    if (res.status !== 200) throw new Error(`${s.name}: ${res.status} ${await res.text()}`)
    bytes += (await res.arrayBuffer()).byteLength
  }
  const perRound: string[] = []
  for (let r = 0; r < rounds; r++) {
    let n = 0
    const t0 = performance.now()
    const until = t0 + seconds * 1000
    while (performance.now() < until) {
      for (let i = 0; i < 16; i++, n++) await (await app.handle(requestOf(s.path, bodies[n % bodies.length]))).arrayBuffer()
    }
    perRound.push((((performance.now() - t0) / n) * 1000).toFixed(1))
  }
  console.log(`| ${s.name} | ${perRound.join(' | ')} | ${(bytes / bodies.length / 1024).toFixed(1)} |`)
}
process.exit(0)
