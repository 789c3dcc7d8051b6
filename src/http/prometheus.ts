// GET /metrics in Prometheus text format (decision 29): requests and latency per
// endpoint and status, rate-limited requests, sync runs with duration and rows,
// and the age of the data. Counts and timings only, never data or keys.
// Each serving worker counts its own requests; /metrics answers with the sum
// over all workers (http/workers.ts). Figures read from the read store are the
// same in every worker, so they are taken once ('first'), not summed.
import { collectDefaultMetrics, Counter, Gauge, Registry, type MetricObjectWithValues, type MetricValueWithName } from 'prom-client'
import { version } from '../../package.json'
import { callerTotalsInMemory } from '../store/callerTotals'
import { minutesInMemory } from '../store/minuteTotals'
import { readSnapshot } from '../store/snapshot'
import { lastSyncRuns, syncRunCounts } from '../store/syncRuns'
import type { Store } from '../store/open'
import { API_PATHS } from './paths'

const known = new Set<string>([...API_PATHS, '/health', '/metrics', '/docs', '/openapi.json'])

const LATENCY = 'listing_api_request_duration_seconds'
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

/** One endpoint and status: its requests and their latency, by bucket (non-cumulative; the last slot is past 2.5 s). */
interface Tally {
  labels: { endpoint: string; status: string }
  count: number
  sum: number
  buckets: number[]
}

/**
 * Requests by endpoint and status with their latency, counted per request in
 * plain numbers and handed to prom-client only when /metrics is read: a labelled
 * prom-client observe (label checks, label hashing) costs 0.7 µs a request, about
 * what a whole small answer's own work costs. Read as prom-client's own
 * histogram reads, so the supervisor sums workers' figures the same way.
 */
class RequestTallies {
  private byKey = new Map<string, Tally>()

  observe(endpoint: string, status: number, seconds: number): void {
    const key = `${endpoint} ${status}`
    let t = this.byKey.get(key)
    if (!t) this.byKey.set(key, (t = { labels: { endpoint, status: String(status) }, count: 0, sum: 0, buckets: new Array(BUCKETS.length + 1).fill(0) }))
    t.count++
    t.sum += seconds
    let i = 0
    while (i < BUCKETS.length && seconds > BUCKETS[i]) i++
    t.buckets[i]++
  }

  all(): Iterable<Tally> {
    return this.byKey.values()
  }

  /** The latency histogram in prom-client's shape (Histogram.get()): cumulative buckets, +Inf, sum and count. */
  latency(): Omit<MetricObjectWithValues<MetricValueWithName<string>>, 'collect'> {
    const values: MetricValueWithName<string>[] = []
    for (const t of this.byKey.values()) {
      let acc = 0
      BUCKETS.forEach((le, i) => {
        acc += t.buckets[i]
        values.push({ labels: { le, ...t.labels }, value: acc, metricName: `${LATENCY}_bucket` })
      })
      values.push({ labels: { le: '+Inf', ...t.labels }, value: t.count, metricName: `${LATENCY}_bucket` })
      values.push({ labels: t.labels, value: t.sum, metricName: `${LATENCY}_sum` })
      values.push({ labels: t.labels, value: t.count, metricName: `${LATENCY}_count` })
    }
    return { name: LATENCY, help: 'Request latency by endpoint and status', type: 'histogram' as never, values, aggregator: 'sum' }
  }
}

export class Metrics {
  readonly registry = new Registry()
  /** The text /metrics answers: this registry's, or, in a serving worker, the whole server's. */
  render: () => Promise<string> = () => this.registry.metrics()
  private tallies = new RequestTallies()
  private limited = new Counter({ name: 'listing_api_rate_limited_total', help: 'Requests refused with 429', labelNames: ['endpoint'], registers: [this.registry] })
  private unexpected = new Counter({ name: 'listing_api_unexpected_errors_total', help: 'Errors nobody expected, answered 500 (the log has the stack)', labelNames: ['endpoint'], registers: [this.registry] })

  /** `processMetrics`: the process's own figures (CPU, memory, event loop) and build info; a serving worker leaves them to the supervisor, which has them once for the process */
  constructor(db: Store, { processMetrics = true }: { processMetrics?: boolean } = {}) {
    const registers = [this.registry]
    if (processMetrics) registerProcessMetrics(this.registry)
    const tallies = this.tallies
    new Counter({
      name: 'listing_api_requests_total',
      help: 'Requests by endpoint and status',
      labelNames: ['endpoint', 'status'],
      registers,
      collect() {
        this.reset()
        for (const t of tallies.all()) this.inc(t.labels, t.count)
      },
    })
    this.registry.registerMetric({ name: LATENCY, get: async () => tallies.latency(), reset: () => {} } as never)
    const aggregator = 'first' as const
    new Counter({
      name: 'listing_api_sync_runs_total',
      aggregator,
      help: 'Sync runs recorded in the read store, by result (ok, failed, running)',
      labelNames: ['result'],
      registers,
      collect() {
        this.reset()
        for (const { result, n } of syncRunCounts(db)) this.inc({ result }, n)
      },
    })
    const last = () => lastSyncRuns(db)
    new Gauge({
      name: 'listing_api_sync_last_duration_seconds',
      aggregator,
      help: 'Duration of the last finished sync run',
      registers,
      collect() {
        const run = last().last
        if (run?.finished_at) this.set((Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000)
      },
    })
    new Gauge({
      name: 'listing_api_sync_last_rows',
      aggregator,
      help: 'Rows read and written by the last successful sync run',
      labelNames: ['kind'],
      registers,
      collect() {
        const stats = last().lastOkStats
        if (!stats) return
        let read = 0
        let written = 0
        for (const t of Object.values(stats.tables ?? {})) {
          read += t.read
          written += t.written
        }
        this.set({ kind: 'read' }, read)
        this.set({ kind: 'written' }, written)
      },
    })
    new Gauge({
      name: 'listing_api_data_age_seconds',
      aggregator,
      help: 'Seconds since the snapshot behind the served data was taken; +Inf while no sync has succeeded',
      registers,
      collect() {
        const asOf = last().lastOk?.started_at
        this.set(asOf ? (Date.now() - Date.parse(asOf)) / 1000 : Number.POSITIVE_INFINITY)
      },
    })
    new Gauge({
      name: 'listing_api_sync_last_success_timestamp_seconds',
      aggregator,
      help: 'When the last successful sync finished (Unix time); 0 while none has',
      registers,
      collect() {
        const finished = last().lastOk?.finished_at
        this.set(finished ? Date.parse(finished) / 1000 : 0)
      },
    })
    // summed over the workers: how many have read the callers' base (a worker starts reading it
    // before it listens and answers meanwhile with a seek a row; at production size that takes
    // seconds, and an answer of many rows is several times slower until then)
    new Gauge({
      name: 'listing_api_caller_totals_in_memory',
      aggregator: 'sum',
      help: 'Serving workers that hold every caller\'s lifetime total in memory (until then each row\'s total is a seek)',
      registers,
      collect() {
        this.set(readSnapshot(db, () => callerTotalsInMemory(db)) ? 1 : 0)
      },
    })
    // summed the same way: a worker without the copy of call_minutes for the store's newest run
    // reads the table for call history across stores; the first such request after a sync
    // begins the read (a scrape does not)
    new Gauge({
      name: 'listing_api_call_minutes_in_memory',
      aggregator: 'sum',
      help: 'Serving workers that hold call_minutes of the newest sync in memory (until then call history across stores reads the table)',
      registers,
      collect() {
        this.set(readSnapshot(db, () => minutesInMemory(db)) ? 1 : 0)
      },
    })
  }

  unexpectedError(path: string): void {
    this.unexpected.inc({ endpoint: known.has(path) ? path : 'other' })
  }

  observe(path: string, status: number, seconds: number): void {
    const endpoint = known.has(path) ? path : 'other'
    this.tallies.observe(endpoint, status, seconds)
    if (status === 429) this.limited.inc({ endpoint })
  }
}

/** The process's own figures (prom-client's defaults: CPU, memory, event loop lag) and listing_api_build_info. */
export function registerProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry })
  new Gauge({ name: 'listing_api_build_info', help: 'Always 1; the labels say what is running', labelNames: ['version', 'bun'], registers: [registry] }).set({ version, bun: Bun.version }, 1)
}
