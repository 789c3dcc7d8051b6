// What the shared rate limit costs a request: RateLimiter.take() on buckets in
// shared memory, alone and with a second thread taking from the same buckets at
// once, against a round trip to another thread (what keeping the buckets in one
// place would cost instead).
//   bun scripts/bench-ratelimit.ts
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { RateLimiter } from '../src/http/rateLimit'

const N = 1_000_000
// a limit no loop here reaches, so every take() succeeds and only the bookkeeping is timed
const limiter = (memory?: SharedArrayBuffer) => new RateLimiter(1e9, 1e9, Date.now, memory)

function takeLoop(l: RateLimiter): number {
  const t0 = performance.now()
  for (let i = 0; i < N; i++) l.take(1 + (i & 15))
  return ((performance.now() - t0) * 1e6) / N
}

if (!isMainThread) {
  parentPort!.postMessage(takeLoop(limiter(workerData.memory)))
  parentPort!.on('message', (m) => parentPort!.postMessage(m)) // echo, for the round trip
} else {
  const alone = limiter()
  takeLoop(alone) // warm up
  console.log(`take(), one thread:              ${takeLoop(alone).toFixed(0)} ns`)
  const shared = limiter()
  const other = new Worker(new URL(import.meta.url), { workerData: { memory: shared.memory } })
  const otherNs = new Promise<number>((resolve) => other.once('message', resolve))
  const mine = takeLoop(shared)
  console.log(`take(), two threads at once:      ${mine.toFixed(0)} ns and ${(await otherNs).toFixed(0)} ns`)
  const rounds = 20_000
  const t0 = performance.now()
  for (let i = 0; i < rounds; i++) {
    const back = new Promise((resolve) => other.once('message', resolve))
    other.postMessage(i)
    await back
  }
  console.log(`a round trip to another thread:   ${(((performance.now() - t0) * 1e6) / rounds).toFixed(0)} ns`)
  await other.terminate()
}
