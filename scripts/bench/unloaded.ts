// Requests one at a time, each sent when the last one's answer has been read whole,
// from a process of their own that holds nothing else: the time of each, to stdout
// as a JSON array of milliseconds. The bench's own process holds what it measures with
// (a scenario's answers for the ceiling: 137 MB for the feed's walk), and reading a 557 KB
// answer in a client with such a heap measured 5.5-5.7 ms where a light client measured
// 3.8-4.1 ms of the same server, whose own time stayed at 3.1-3.3 ms (docs/benchmarks.md,
// eighteenth session): the client's heap is no part of the server's latency.
//   bun scripts/bench/unloaded.ts <port> <api key> <plan file>
// The plan holds a request a line: its path, a tab and its body, sent in that order.
import { readFileSync } from 'node:fs'

const [port, key, planFile] = process.argv.slice(2)
const plan = readFileSync(planFile, 'utf8').split('\n').filter((line) => line !== '').map((line) => {
  const tab = line.indexOf('\t')
  return { path: line.slice(0, tab), body: line.slice(tab + 1) }
})
// identity, as wrk asks: Bun's fetch asks for gzip, br and zstd unless told otherwise
const headers = { 'x-api-key': key, 'accept-encoding': 'identity' }
const times: number[] = []
for (const { path, body } of plan) {
  const t0 = performance.now()
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers, body })
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`${path} ${body}: ${res.status}`)
  times.push(performance.now() - t0)
}
console.log(JSON.stringify(times))
