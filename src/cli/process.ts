// What the commands do with their process: start-up checks that fail with one
// line, and a graceful stop on SIGTERM or SIGINT.
import { accessSync, constants, existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { ConfigError } from '../config'
import type { Logger } from '../log'

/** Start-up check: the read store's folder (and the file, if it exists) must be writable. */
export function checkWritable(dbPath: string): void {
  const target = existsSync(dbPath) ? dbPath : existsSync(dirname(dbPath)) ? dirname(dbPath) : undefined
  if (target === undefined) return // openStore creates the folder
  try {
    accessSync(target, constants.W_OK)
  } catch {
    throw new ConfigError(`DB_PATH ${dbPath} is not writable`)
  }
}

/** On SIGTERM or SIGINT: stop (once), then exit 0. */
export function stopOnSignals(log: Logger, stop: () => Promise<unknown>): void {
  let stopping = false
  const onSignal = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info('stopping', { signal })
    await stop()
    log.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void onSignal('SIGTERM'))
  process.on('SIGINT', () => void onSignal('SIGINT'))
}
