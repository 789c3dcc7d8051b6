// Where a served request's time goes, under the benchmark's load: one serving worker
// (WORKERS=1) on a synced read store, wrk with the scenario's bodies (bench/scenarios.ts),
// and `perf record` of the server's threads meanwhile. JavaScriptCore writes a JIT dump
// (BUN_JSC_useJITDump), turned here into a perf map (/tmp/perf-<pid>.map) so that JIT
// frames carry their function names; Bun's own code has no symbols in the npm build, so
// its frames are file offsets. Each sample is credited to the innermost JavaScript
// function on its stack (what that function does, natives it calls included: SQLite's
// statements, string and object allocation, JSON.stringify), or to the kernel or the
// runtime when no JavaScript is on the stack (the socket, the HTTP parser, collections).
// Not a test; needs perf and wrk (apt-get install linux-perf wrk) and root or perf rights.
//   bun scripts/profile-serve.ts [--db-path /tmp/listing-bench-sync-1.sqlite] [--only 'name|name'] [--seconds 10] [--port 18096]
//   bun scripts/profile-serve.ts --bodies <file> --path /listing/dealer   (bodies of one's own, a line each)
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseFlags } from './bench/args'
import { servedScenarios } from './bench/inProcess'
import { startServe, untilCallerTotalsInMemory } from './bench/probe'
import { BENCH_SERVE_ENV, INTEGRATION_ID } from './bench/scenarios'
import { runWrk } from './bench/wrk'
import { benchKey } from './seed-master'

const { flags } = parseFlags(process.argv.slice(2))
const dbPath = flags.get('--db-path') ?? '/tmp/listing-bench-sync-1.sqlite'
const seconds = Number(flags.get('--seconds') ?? 10)
const port = Number(flags.get('--port') ?? 18_096)
const top = Number(flags.get('--top') ?? 10)

for (const tool of ['perf', 'wrk']) if (!Bun.which(tool)) throw new Error(`${tool} is not installed (apt-get install linux-perf wrk)`)
const work = mkdtempSync(join(tmpdir(), 'listing-profile-'))
const scenarios = servedScenarios(flags, dbPath)
// served as the bench serves it, with the JIT's dump
const serve = await startServe(['--db-path', dbPath, '--workers', '1'], { ...BENCH_SERVE_ENV, BUN_JSC_useJITDump: '1', BUN_JSC_jitDumpDirectory: work }, port)
await untilCallerTotalsInMemory(port, 1)
const pid = serve.proc.pid // serve runs itself again in the same process (heapGrowth.ts)

const wrk = async (bodiesFile: string, path: string, name: string, secs: number) => (await runWrk(port, bodiesFile, path, name, benchKey(INTEGRATION_ID), { seconds: secs })).rps

/**
 * JavaScriptCore's JIT dump files of the process (jit-<tid>-<pid>….dump, one a thread) → one perf
 * map: start, size and name a line. Code that is freed leaves no record, and its addresses are
 * used again by code compiled later, so where two entries overlap the later one is kept (without
 * that, hot code of a request took the names of functions compiled as the server started).
 */
function writePerfMap(): void {
  const entries: { time: bigint; start: bigint; end: bigint; name: string }[] = []
  for (const file of readdirSync(work).filter((f) => f.startsWith('jit-') && f.includes(`-${pid}`) && f.endsWith('.dump'))) {
    const b = readFileSync(join(work, file))
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength)
    // the jitdump format: a header (its size at byte 8), then records of id, size and timestamp;
    // a JIT_CODE_LOAD (id 0) holds pid, tid, vma, code address, code size, index, then the name
    for (let at = v.getUint32(8, true); at + 16 <= b.length; ) {
      const [id, size] = [v.getUint32(at, true), v.getUint32(at + 4, true)]
      if (size === 0 || at + size > b.length) break
      if (id === 0) {
        const start = v.getBigUint64(at + 32, true)
        const name = b.toString('utf8', at + 56, b.indexOf(0, at + 56)).replace(/\s+/g, '_')
        entries.push({ time: v.getBigUint64(at + 8, true), start, end: start + v.getBigUint64(at + 40, true), name })
      }
      at += size
    }
  }
  entries.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
  const kept: typeof entries = []
  for (const e of entries) {
    for (let i = kept.length - 1; i >= 0; i--) if (kept[i].start < e.end && e.start < kept[i].end) kept.splice(i, 1)
    kept.push(e)
  }
  writeFileSync(`/tmp/perf-${pid}.map`, kept.map((e) => `${e.start.toString(16)} ${(e.end - e.start).toString(16)} ${e.name}`).join('\n') + '\n')
}

interface Frame {
  ip: string
  sym: string
  dso: string
}

/** perf script's stacks, innermost frame first. */
function stacksOf(data: string): Frame[][] {
  const out = Bun.spawnSync(['perf', 'script', '-i', data, '-F', 'ip,sym,dso'], { stdout: 'pipe', stderr: 'ignore' }).stdout.toString()
  return out.split(/\n\s*\n/).map((block) =>
    block.split('\n').map((l) => /^\s*([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$/.exec(l)).filter((m) => m !== null).map((m) => ({ ip: m![1], sym: m![2], dso: m![3] })),
  ).filter((s) => s.length > 0)
}

/** A JIT frame's function (an anonymous one by its hash); null for native frames and JavaScriptCore's thunks. */
function jsName(f: Frame): string | null {
  const m = /^JSC-(\w+):_(.*?)(#\w+)?$/.exec(f.sym)
  if (m === null || m[1] === 'Thunk') return null
  return m[2] || `(anonymous ${m[3] ?? ''})`
}
const leafName = (f: Frame) => (f.sym && f.sym !== '[unknown]' ? f.sym : `${f.dso.split('/').pop()}+0x${f.ip}`)
const share = (n: number, total: number) => `${((100 * n) / total).toFixed(1)}%`

function summary(stacks: Frame[][]): string {
  const total = stacks.length
  const byOwner = new Map<string, number>()
  const byLeaf = new Map<string, number>()
  const onStack = new Map<string, number>()
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1)
  for (const stack of stacks) {
    for (const name of new Set(stack.map(jsName).filter((n) => n !== null))) add(onStack, name)
    // the innermost JavaScript function; a native call's trampoline is credited to its caller
    const js = stack.map(jsName).find((n) => n !== null)
    const owner = js ?? (stack[0].dso.includes('kernel') ? '(kernel, no JavaScript on the stack: the socket)' : '(runtime, no JavaScript on the stack)')
    add(byOwner, owner)
    add(byLeaf, leafName(stack[0]))
  }
  const rows = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, n]) => `| ${k} | ${share(n, total)} |`).join('\n')
  return `| Innermost JavaScript function (with the natives it calls) | share |\n|---|---|\n${rows(byOwner)}\n\n| Hottest instruction's function | share |\n|---|---|\n${rows(byLeaf)}` +
    `\n\n| JavaScript function anywhere on the stack (what it calls included) | share |\n|---|---|\n${rows(onStack)}`
}

// recorded first, summarised once the server has exited: its JIT dump is complete then
const profiled: { name: string; rps: number; data: string }[] = []
for (const s of scenarios) {
  const file = join(work, s.name.replace(/\W+/g, '_'))
  writeFileSync(`${file}.txt`, s.ours.map((b) => JSON.stringify(b)).join('\n'))
  await wrk(`${file}.txt`, s.path, s.name, 3) // warm-up
  const load = wrk(`${file}.txt`, s.path, s.name, seconds + 2)
  await Bun.sleep(1000)
  Bun.spawnSync(['perf', 'record', '-q', '-g', '-p', String(pid), '-o', `${file}.perf`, '--', 'sleep', String(seconds)], { stdout: 'ignore', stderr: 'inherit' })
  profiled.push({ name: s.name, rps: await load, data: `${file}.perf` })
}
await serve.stop()
writePerfMap()
for (const { name, rps, data } of profiled) {
  console.log(`### ${name}\n\n${rps.toFixed(0)} req/s while profiled (the profile slows it).\n\n${summary(stacksOf(data))}\n\nperf report -i ${data}\n`)
}
