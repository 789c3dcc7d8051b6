// serve with SYNC_INTERVAL: sync in the background on its own connection,
// one run at a time (the next starts an interval after the last one ended).
import { openStore } from '../store/open'
import { runSync } from './run'

export function startSyncSchedule(dbPath: string, mysqlUrl: string, intervalSeconds: number, log = (fields: object) => console.log(JSON.stringify(fields))) {
  const db = openStore(dbPath)
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const tick = async () => {
    try {
      const result = await runSync(db.$client, mysqlUrl)
      log({ level: 'info', msg: 'sync ok', ...result })
    } catch (error) {
      log({ level: 'error', msg: 'sync failed', error: (error as Error).message })
    }
    if (!stopped) timer = setTimeout(tick, intervalSeconds * 1000)
  }
  timer = setTimeout(tick, 0)
  return {
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}
