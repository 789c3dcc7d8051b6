// serve's serving workers: one thread each (node:worker_threads, http/worker.ts),
// all listening on one port with SO_REUSEPORT, so the kernel spreads connections
// over them and every core answers. This module is the supervisor, on the main
// thread; it answers no request itself. It starts the workers and replaces one
// that dies, writes their log lines (one writer, so two lines never interleave),
// sums their metrics when one of them is asked for /metrics, and drains them all
// on stop. The workers share the rate-limit buckets through shared memory.
import { Worker } from 'node:worker_threads'
import { AggregatorRegistry, Gauge, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client'
import type { Config } from '../config'
import type { Logger } from '../log'
import { compiled } from '../self'
import { registerProcessMetrics } from './prometheus'
import { RateLimiter } from './rateLimit'

/** What a serving worker is started with. */
export interface WorkerData {
  config: Config
  secret: string
  port: number
  rateLimitMemory: SharedArrayBuffer
}

type Metrics = MetricObjectWithValues<MetricValue<string>>[]
export type ToWorker = { type: 'collect'; id: number } | { type: 'scraped'; id: number; text: string } | { type: 'stop' }
export type FromWorker =
  | { type: 'listening'; port: number }
  | { type: 'ready' }
  | { type: 'log'; out: string; err: string }
  | { type: 'scrape'; id: number }
  | { type: 'metrics'; id: number; metrics: Metrics }
  | { type: 'stopped' }

interface ServingWorkers {
  /** the port they share (the one picked, when the configured port is 0) */
  port: number
  /** how many are listening now */
  running(): number
  /** the worker threads, for tests that kill one */
  threads(): Worker[]
  /** true once every worker started first holds the callers' totals in memory; false if READY_WAIT_MS passes first */
  ready: Promise<boolean>
  /** every worker stops accepting and finishes its requests in flight (10 s at most) */
  stop(): Promise<void>
}

// in the binary, the worker is an entry point of its own, under the bundle's root (src/): scripts/build.ts
const ENTRY = compiled ? './http/worker.ts' : new URL('./worker.ts', import.meta.url)
/** a worker that dies within this long of starting is restarted after a growing pause */
const STEADY_MS = 10_000
const SCRAPE_TIMEOUT_MS = 2_000
/** the longest serve waits for its workers to be ready before it syncs anyway (a production-size base takes seconds) */
export const READY_WAIT_MS = 60_000

export async function startWorkers(config: Config, secret: string, log: Logger): Promise<ServingWorkers> {
  const configured = config.workers
  const port = await freePort(config.host, config.port)
  const rateLimitMemory = new RateLimiter(config.rateLimitPerMin, config.rateLimitBurst).memory
  const data: WorkerData = { config, secret, port, rateLimitMemory }

  const registry = new Registry()
  const gauge = new Gauge({ name: 'listing_api_serving_workers', help: 'Serving worker threads, configured and running', labelNames: ['state'], registers: [registry] })
  gauge.set({ state: 'configured' }, configured)
  registerProcessMetrics(registry)

  const slots: { worker?: Worker; listening: boolean; startedAt: number; pause: number }[] = []
  // the first workers' readiness, by slot: a replaced worker's later one counts once
  const readySlots = new Set<number>()
  let allReady = () => {}
  const ready = new Promise<boolean>((resolve) => {
    allReady = () => resolve(true)
    setTimeout(() => resolve(false), READY_WAIT_MS).unref?.()
  })
  const running = () => slots.filter((s) => s.listening).length
  const update = () => gauge.set({ state: 'running' }, running())
  let stopping = false

  // /metrics: every worker's own figures, summed (each figure read from the store is taken once)
  let nextScrape = 0
  const collecting = new Map<number, (m: Metrics) => void>()
  async function scrape(): Promise<string> {
    const live = slots.filter((s) => s.listening && s.worker).map((s) => s.worker!)
    const parts = await Promise.all(
      live.map((w) => {
        const id = ++nextScrape
        return new Promise<Metrics | undefined>((resolve) => {
          const timer = setTimeout(() => (collecting.delete(id), resolve(undefined)), SCRAPE_TIMEOUT_MS)
          collecting.set(id, (m) => (clearTimeout(timer), collecting.delete(id), resolve(m)))
          w.postMessage({ type: 'collect', id } satisfies ToWorker)
        })
      }),
    )
    const all = [...parts.filter((p): p is Metrics => p !== undefined), (await registry.getMetricsAsJSON()) as Metrics]
    return AggregatorRegistry.aggregate(all).metrics()
  }

  function start(index: number, first: (error?: Error) => void): void {
    const slot = (slots[index] ??= { listening: false, startedAt: 0, pause: 0 })
    const worker = new Worker(ENTRY, { workerData: data })
    slot.worker = worker
    slot.startedAt = Date.now()
    worker.on('message', (m: FromWorker) => {
      switch (m.type) {
        case 'log':
          if (m.out) process.stdout.write(m.out)
          if (m.err) process.stderr.write(m.err)
          return
        case 'listening':
          slot.listening = true
          update()
          return first()
        case 'ready':
          if (readySlots.add(index).size === configured) allReady()
          return
        case 'scrape':
          return void scrape().then((text) => worker.postMessage({ type: 'scraped', id: m.id, text } satisfies ToWorker))
        case 'metrics':
          return collecting.get(m.id)?.(m.metrics)
        case 'stopped':
          return void worker.terminate()
      }
    })
    worker.on('error', (error: Error) => log.error('serving worker failed', { worker: index, error: error?.stack ?? String(error) }))
    worker.on('exit', (code) => {
      const wasListening = slot.listening
      slot.listening = false
      slot.worker = undefined
      update()
      if (stopping) return
      if (!wasListening) return first(new Error(`serving worker ${index} stopped before it listened (exit code ${code})`))
      // replace it; one that keeps dying soon after it starts is retried after a growing pause
      slot.pause = Date.now() - slot.startedAt < STEADY_MS ? Math.min(30_000, Math.max(1000, slot.pause * 2)) : 0
      log.error('serving worker stopped; starting another', { worker: index, exit_code: code, running: running(), configured, retry_in_ms: slot.pause })
      setTimeout(() => {
        if (stopping) return
        start(index, (error) => {
          if (error) return log.error('serving worker could not start', { worker: index, error: error.message, running: running(), configured })
          log.warn('serving worker replaced', { worker: index, running: running(), configured })
        })
      }, slot.pause)
    })
  }

  // start them all; any that fails to start fails serve
  await Promise.all(Array.from({ length: configured }, (_, i) => new Promise<void>((resolve, reject) => start(i, (e) => (e ? reject(e) : resolve())))))
    .catch(async (error) => {
      stopping = true
      await Promise.all(slots.map((s) => s.worker?.terminate()))
      throw error
    })

  return {
    port,
    running,
    threads: () => slots.flatMap((s) => (s.worker ? [s.worker] : [])),
    ready,
    async stop() {
      stopping = true
      const live = slots.flatMap((s) => (s.worker ? [s.worker] : []))
      await Promise.all(
        live.map(async (w) => {
          const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()))
          w.postMessage({ type: 'stop' } satisfies ToWorker)
          // a worker drains for 10 s at most; past 12 s it is ended
          if ((await Promise.race([exited.then(() => true), Bun.sleep(12_000).then(() => false)])) === false) await w.terminate()
        }),
      )
    },
  }
}

/**
 * The port the workers will share. Bound once without SO_REUSEPORT first: a port
 * another server holds (even another `serve` sharing it) fails here instead of
 * splitting its traffic with us; port 0 picks a free one.
 */
async function freePort(host: string, port: number): Promise<number> {
  try {
    const probe = Bun.listen({ hostname: host, port, socket: { data() {} } })
    const picked = probe.port
    probe.stop(true)
    return picked
  } catch (error) {
    const code = (error as { code?: string }).code
    const why = code === 'EADDRINUSE' ? 'another server is using that port' : code === 'EADDRNOTAVAIL' ? 'no such address on this machine' : (error as Error).message
    throw new Error(`cannot listen on ${host}:${port}: ${why}`)
  }
}
