// Mixed traffic in process: the benchmark's scenarios (bench/scenarios.ts) one
// request each in turn, plus pages and call logs of every call class, as
// partners' requests arrive together. The main benchmark runs one scenario at
// a time, so what one kind of request costs the next (statements pushed out of
// bun:sqlite's cache, caches of the CPU) shows only here. Reports each
// endpoint's time a request in the mix and the statements prepared a request.
// Not a test.
//   bun scripts/bench-mixed.ts [--db-path /tmp/listing-bench-sync-1.sqlite] [--rounds 3] [--query-cache N]
// --query-cache sets bun:sqlite's statement cache (Database.MAX_QUERY_CACHE_SIZE) after the
// store module set its own, to compare (20 is bun:sqlite's default).
import { Database } from 'bun:sqlite'
import { parseFlags } from './bench/args'
import { scenariosOf, servingApp } from './bench/inProcess'

const { flags } = parseFlags(process.argv.slice(2))
const dbPath = flags.get('--db-path') ?? '/tmp/listing-bench-sync-1.sqlite'
const rounds = Number(flags.get('--rounds') ?? 3)
if (flags.has('--query-cache')) Database.MAX_QUERY_CACHE_SIZE = Number(flags.get('--query-cache'))

// statements prepared: what query() does when a text is not in its cache (its own prepare, not Database.prepare)
const prepareOwned = Object.getOwnPropertySymbols(Database.prototype).find((s) => String(s).includes('prepareOwned'))
let prepares = 0
if (prepareOwned) {
  const proto = Database.prototype as unknown as Record<symbol, (...args: unknown[]) => unknown>
  const prepare = proto[prepareOwned]
  proto[prepareOwned] = function (this: unknown, ...args: unknown[]) {
    prepares++
    return prepare.apply(this, args)
  }
}

// the 150-dealer lookup and the feed's walks are answers of 100 KB and more: they would be most of the mix's time
const scenarios = scenariosOf(dbPath, (s) => !s.name.includes('150 dealers') && !s.name.includes('change feed'))
const history = scenarios.find((s) => s.path === '/listing/listingtiles')!
const callLog = scenarios.find((s) => s.path === '/listing/calls')!
const mix: [string, string][] = []
for (let i = 0; i < 200; i++) {
  for (const s of scenarios) mix.push([s.path, JSON.stringify(s.ours[i % s.ours.length])])
  for (const substatus of ['Answered', 'Missed', 'Offline', 'connected']) mix.push([history.path, JSON.stringify({ ...(history.ours[i % history.ours.length] as object), substatus })])
  mix.push([callLog.path, JSON.stringify({ ...(callLog.ours[i % callLog.ours.length] as object), substatus: 'missed' })])
}

const { app, requestOf } = await servingApp(dbPath)

const spent = new Map<string, number>()
async function pass() {
  for (const [path, body] of mix) {
    const t0 = performance.now()
    const res = await app.handle(requestOf(path, body))
    if (res.status !== 200 && res.status !== 404) throw new Error(`${path} ${body}: ${res.status} ${await res.text()}`)
    await res.arrayBuffer()
    spent.set(path, (spent.get(path) ?? 0) + performance.now() - t0)
  }
}

await pass() // every statement prepared once, every copy built
const paths = [...new Set(mix.map(([p]) => p))]
const count = (path: string) => mix.filter(([p]) => p === path).length
console.log(`statement cache: ${Database.MAX_QUERY_CACHE_SIZE}; ${mix.length} requests a round`)
console.log(`| Round | ${paths.map((p) => `${p} µs`).join(' | ')} | statements prepared a request |`)
console.log(`|---|${'---|'.repeat(paths.length)}---|`)
for (let r = 1; r <= rounds; r++) {
  spent.clear()
  prepares = 0
  await pass()
  console.log(`| ${r} | ${paths.map((p) => ((spent.get(p)! * 1000) / count(p)).toFixed(0)).join(' | ')} | ${(prepares / mix.length).toFixed(2)} |`)
}
process.exit(0)
