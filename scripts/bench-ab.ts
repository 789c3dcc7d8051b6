// Served A/B: another tree's serve (A, e.g. a worktree of the commit before) against this
// tree's (B), one worker each on the bench's store, both up at once; per scenario the answers
// are first checked byte for byte, then wrk measures each in windows back to back, which goes
// first alternating. On this shared, noisy machine a change is read from the rounds' B/A, not
// from one window. Not a test.
//   git worktree add /tmp/base HEAD~1 && ln -s $PWD/node_modules /tmp/base/node_modules
//   bun scripts/bench-ab.ts --base /tmp/base [--only 'name|name'] [--seconds 6] [--rounds 5]
//   bun scripts/bench-ab.ts --base /tmp/base --bodies <file> --path /listing/employee   (bodies of one's own, a line each)
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseFlags } from './bench/args'
import { servedScenarios } from './bench/inProcess'
import { median, startServe, untilCallerTotalsInMemory } from './bench/probe'
import { BENCH_SERVE_ENV, INTEGRATION_ID } from './bench/scenarios'
import { runWrk } from './bench/wrk'
import { benchKey } from './seed-master'

const { flags } = parseFlags(process.argv.slice(2))
const dbPath = flags.get('--db-path') ?? '/tmp/listing-bench-sync-1.sqlite'
const base = flags.get('--base')
if (!base) throw new Error('--base <the other tree> is required')
const seconds = Number(flags.get('--seconds') ?? 6)
const rounds = Number(flags.get('--rounds') ?? 5)
const [portA, portB] = [18_081, 18_091]
const key = benchKey(INTEGRATION_ID)

const scenarios = servedScenarios(flags, dbPath)
const serveArgs = ['--db-path', dbPath, '--workers', '1']
const [a, b] = await Promise.all([startServe(serveArgs, BENCH_SERVE_ENV, portA, base), startServe(serveArgs, BENCH_SERVE_ENV, portB)])
try {
  await Promise.all([untilCallerTotalsInMemory(portA, 1), untilCallerTotalsInMemory(portB, 1)])
  const work = mkdtempSync(join(tmpdir(), 'listing-ab-'))
  console.log(`A: ${base}, B: this tree; ${rounds} rounds of ${seconds} s windows\n`)
  console.log(`| Scenario | ${Array.from({ length: rounds }, (_, i) => `round ${i + 1}: A, B req/s`).join(' | ')} | B/A each round | median B/A |`)
  console.log(`|---|${'---|'.repeat(rounds)}---|---|`)
  for (const s of scenarios) {
    const bodies = s.ours.map((o) => JSON.stringify(o))
    const file = join(work, s.name.replace(/\W+/g, '_'))
    writeFileSync(file, bodies.join('\n'))
    const post = async (port: number, body: string) =>
      (await fetch(`http://127.0.0.1:${port}${s.path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body })).text()
    for (const body of bodies) {
      const [ta, tb] = await Promise.all([post(portA, body), post(portB, body)])
      if (ta !== tb) throw new Error(`${s.name}: the answers differ for ${body}\nA: ${ta.slice(0, 400)}\nB: ${tb.slice(0, 400)}`)
    }
    const wrk = async (port: number, secs: number) => (await runWrk(port, file, s.path, s.name, key, { seconds: secs })).rps
    await wrk(portA, 2)
    await wrk(portB, 2)
    const cells: string[] = []
    const ratios: number[] = []
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? [portA, portB] : [portB, portA]
      const rps = new Map<number, number>()
      for (const port of order) rps.set(port, await wrk(port, seconds))
      const [ra, rb] = [rps.get(portA)!, rps.get(portB)!]
      cells.push(`${Math.round(ra)}, ${Math.round(rb)}`)
      ratios.push(rb / ra)
    }
    console.log(`| ${s.name} | ${cells.join(' | ')} | ${ratios.map((x) => x.toFixed(2)).join(', ')} | ${median(ratios).toFixed(2)} |`)
  }
} finally {
  await Promise.all([a.stop(), b.stop()])
}
process.exit(0)
