// listing-api serve: WORKERS serving threads share the port; this thread
// supervises them and runs the sync schedule, each run a process of its own
// (http/workers.ts, sync/schedule.ts).
import { requireMysqlUrl, requireSecret, servingEnvironment } from '../config'
import { runAgain } from '../heapGrowth'
import { READY_WAIT_MS, startWorkers } from '../http/workers'
import { createLogger } from '../log'
import { closeStore, openStore } from '../store/open'
import { startSyncSchedule } from '../sync/schedule'
import type { Command } from './command'
import { checkWritable, stopOnSignals } from './process'

export const serve: Command = {
  name: 'serve',
  usage: 'serve',
  about: 'Serve the API from the read store at DB_PATH on WORKERS threads sharing the port, and sync every SYNC_INTERVAL seconds when it is set (the first run once the workers are ready), each run a process of its own.',
  reads: ['PORT', 'HOST', 'DB_PATH', 'STORELOOKUP_SECRET', 'IMAGE_BASE_URL', 'RATE_LIMIT_PER_MIN', 'RATE_LIMIT_BURST', 'STALE_AFTER', 'WORKERS', 'SYNC_INTERVAL', 'MYSQL_URL', 'LOG_LEVEL'],
  async run({ config }) {
    const log = createLogger(config.logLevel)
    const secret = requireSecret(config)
    checkWritable(config.dbPath)
    const mysqlUrl = config.syncInterval === undefined ? undefined : requireMysqlUrl(config)
    // after the checks above, which fail the same either way; before anything is opened
    const tuned = servingEnvironment()
    if (tuned) runAgain(process.argv.slice(2), tuned)
    // create or migrate the read store once, before the workers open it (after a sync's first load, should one hold it)
    closeStore(openStore(config.dbPath, { waiting: () => log.warn('a sync is loading the read store for the first time; serve starts when it has finished') }))
    const workers = await startWorkers(config, secret, log)
    const startedAt = performance.now()
    const ready = workers.ready.then((all) => {
      if (all) log.info('ready', { workers: config.workers, ms: Math.round(performance.now() - startedAt) })
      else log.warn('serving workers still reading the callers; the scheduled sync starts anyway', { waited_ms: READY_WAIT_MS })
    })
    // the first scheduled run waits for the workers to be ready: not both at once on the same cores
    const schedule = mysqlUrl === undefined ? undefined : startSyncSchedule({ dbPath: config.dbPath, mysqlUrl, intervalSeconds: config.syncInterval!, log, after: ready })
    const host = config.host.includes(':') ? `[${config.host}]` : config.host
    log.info('listening', { url: `http://${host}:${workers.port}/`, db: config.dbPath, workers: config.workers, sync_interval: config.syncInterval ?? null })
    stopOnSignals(log, () => Promise.all([schedule?.stop(), workers.stop()]))
  },
}
