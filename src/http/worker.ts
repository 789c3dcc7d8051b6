// One serving worker thread of `serve` (started by http/workers.ts): its own
// read-store connection and HTTP server on the shared port, the rate-limit
// buckets in memory it shares with the other workers, and its log lines and
// metrics handed to the supervisor, which writes and sums them.
import { parentPort, workerData } from 'node:worker_threads'
import { createLogger, type Level } from '../log'
import { callersRead } from '../store/callerTotals'
import { minutesRead } from '../store/minuteTotals'
import { closeStore, openStore } from '../store/open'
import { warmUp } from '../store/warm'
import { apiDeps } from './context'
import { Metrics } from './prometheus'
import { drainServer, startServer } from './server'
import type { FromWorker, ToWorker, WorkerData } from './workers'

const supervisor = parentPort!
const send = (message: FromWorker) => supervisor.postMessage(message)
const { config, secret, port, rateLimitMemory } = workerData as WorkerData

// log lines go to the supervisor, whole, a batch per turn of the event loop
let out = ''
let err = ''
let flushing = false
const flush = () => {
  flushing = false
  if (out || err) send({ type: 'log', out, err })
  out = err = ''
}
const log = createLogger(config.logLevel, (line: string, level: Level) => {
  if (level === 'warn' || level === 'error') err += `${line}\n`
  else out += `${line}\n`
  if (out.length + err.length > 64 * 1024) flush()
  else if (!flushing) {
    flushing = true
    setImmediate(flush)
  }
})

const db = openStore(config.dbPath, { migrate: false, serving: true }) // serve migrated it before starting the workers
const deps = apiDeps(db, config, secret, { expectSync: true, rateLimitMemory })
const metrics = new Metrics(db, { processMetrics: false }) // the supervisor has them, once for the process
// /metrics answers for the whole server: the supervisor gathers every worker's figures
let nextScrape = 0
const scrapes = new Map<number, (text: string) => void>()
metrics.render = () => new Promise((resolve) => {
  const id = ++nextScrape
  scrapes.set(id, resolve)
  send({ type: 'scrape', id })
})
try {
  warmUp(db)
} catch (error) {
  // the requests will say what is wrong with the store; the worker still starts
  log.warn('the read store could not be read before listening', { error: String(error) })
}
const server = startServer(deps, config.host, port, log, { reusePort: true, metrics })

supervisor.on('message', async (m: ToWorker) => {
  switch (m.type) {
    case 'collect':
      return send({ type: 'metrics', id: m.id, metrics: (await metrics.registry.getMetricsAsJSON()) as never })
    case 'scraped':
      scrapes.get(m.id)?.(m.text)
      return void scrapes.delete(m.id)
    case 'stop':
      await drainServer(server)
      flush()
      closeStore(db)
      return send({ type: 'stopped' })
  }
})
send({ type: 'listening', port: server.port! })
// ready once the callers' totals and call_minutes are in memory (warmUp started reading them, a slice a turn): serve
// starts its scheduled sync after that, so a restart does not read them and sync at once on two cores
void Promise.all([callersRead(db), minutesRead(db)]).then(() => send({ type: 'ready' }))
