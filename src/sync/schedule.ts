// serve with SYNC_INTERVAL: sync in the background on its own connection,
// one run at a time (the next starts an interval after the last one ended).
// stop() rolls back a run in progress.
import type { Logger } from '../log'
import { openStore } from '../store/open'
import { runSync } from './run'

export function startSyncSchedule(dbPath: string, mysqlUrl: string, intervalSeconds: number, log: Pick<Logger, 'info' | 'error'>) {
  const db = openStore(dbPath)
  const abort = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  const tick = async () => {
    running = (async () => {
      try {
        const result = await runSync(db.$client, mysqlUrl, { signal: abort.signal })
        log.info('sync ok', { ...result })
      } catch (error) {
        log.error(abort.signal.aborted ? 'sync stopped and rolled back' : 'sync failed', { error: (error as Error).message })
      }
    })()
    await running
    running = undefined
    if (!abort.signal.aborted) timer = setTimeout(tick, intervalSeconds * 1000)
  }
  timer = setTimeout(tick, 0)
  return {
    async stop() {
      abort.abort()
      clearTimeout(timer)
      await running
      db.$client.close()
    },
  }
}
