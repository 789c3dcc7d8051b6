// GET /metrics in Prometheus text format (decision 29): requests and latency per
// endpoint and status, rate-limited requests, sync runs with duration and rows,
// and the age of the data. Counts and timings only, never data or keys.
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import { lastSyncRuns, syncRunCounts } from '../store/syncRuns'
import type { Store } from '../store/open'
import { API_PATHS } from './paths'

const known = new Set<string>([...API_PATHS, '/health', '/metrics', '/docs', '/openapi.json'])

export class Metrics {
  readonly registry = new Registry()
  private requests = new Counter({ name: 'listing_api_requests_total', help: 'Requests by endpoint and status', labelNames: ['endpoint', 'status'], registers: [this.registry] })
  private latency = new Histogram({
    name: 'listing_api_request_duration_seconds',
    help: 'Request latency by endpoint and status',
    labelNames: ['endpoint', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  })
  private limited = new Counter({ name: 'listing_api_rate_limited_total', help: 'Requests refused with 429', labelNames: ['endpoint'], registers: [this.registry] })

  constructor(db: Store) {
    const registers = [this.registry]
    new Gauge({
      name: 'listing_api_sync_runs',
      help: 'Sync runs recorded in the read store, by result',
      labelNames: ['result'],
      registers,
      collect() {
        for (const { result, n } of syncRunCounts(db)) this.set({ result }, n)
      },
    })
    const last = () => lastSyncRuns(db)
    new Gauge({
      name: 'listing_api_sync_last_duration_seconds',
      help: 'Duration of the last finished sync run',
      registers,
      collect() {
        const run = last().last
        if (run?.finished_at) this.set((Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000)
      },
    })
    new Gauge({
      name: 'listing_api_sync_last_rows',
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
      help: 'Seconds since the snapshot behind the served data was taken',
      registers,
      collect() {
        const asOf = last().lastOk?.started_at
        if (asOf) this.set((Date.now() - Date.parse(asOf)) / 1000)
      },
    })
  }

  observe(path: string, status: number, seconds: number): void {
    const endpoint = known.has(path) ? path : 'other'
    const labels = { endpoint, status: String(status) }
    this.requests.inc(labels)
    this.latency.observe(labels, seconds)
    if (status === 429) this.limited.inc({ endpoint })
  }
}
