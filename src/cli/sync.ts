// listing-api sync: one run from the master into the read store, then exit.
// It says what it is doing: a live line on a terminal, a line on stderr every
// 10 s otherwise; --scheduled (how serve runs it) writes JSON lines instead,
// and stops the run if serve goes away.
import { requireMysqlUrl, type TestHooks } from '../config'
import { createLogger } from '../log'
import { closeStore, openStore } from '../store/open'
import { Progress, startReporter } from '../sync/progress'
import { runSync } from '../sync/run'
import type { Command } from './command'
import { checkWritable } from './process'

export const sync: Command = {
  name: 'sync',
  usage: 'sync [--scheduled]',
  about: 'Copy the master at MYSQL_URL into the read store at DB_PATH once, then exit (non-zero on failure). Progress goes to stderr: a live line on a terminal, a line every 10 s otherwise.',
  reads: ['DB_PATH', 'MYSQL_URL'],
  flags: { scheduled: { type: 'boolean', about: "how serve runs each scheduled sync: JSON lines on stdout, and the run stops if serve does" } },
  async run({ config, flags }) {
    const scheduled = flags.scheduled === true
    const mysqlUrl = requireMysqlUrl(config)
    checkWritable(config.dbPath)
    // sync writes through its own connection; a running server reads the file through another
    const db = openStore(config.dbPath)
    const abort = new AbortController()
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => abort.abort())
    if (scheduled) {
      const parent = process.ppid
      setInterval(() => process.ppid !== parent && abort.abort(), 1000).unref()
    }
    const progress = new Progress()
    const reporter = startReporter(progress, scheduled ? 'json' : process.stderr.isTTY ? 'terminal' : 'lines', config.testHooks.progressEveryMs)
    const json = createLogger('info', (line) => process.stdout.write(`${line}\n`))
    try {
      const result = await runSync(db, mysqlUrl, { signal: abort.signal, onPhase: hooksAt(config.testHooks), progress })
      await reporter.stop()
      const peakMb = Math.round(process.resourceUsage().maxRSS / 1024)
      if (scheduled) return void json.info('sync ok', { ...result, peak_rss_mb: peakMb })
      const rows = Object.values(result.tables).reduce((n, t) => n + t.read, 0)
      console.log(`sync ok: ${result.full ? 'full load' : 'incremental'}, ${rows} rows read, ${result.repaired} repaired, ${(result.ms / 1000).toFixed(1)} s, peak RSS ${peakMb} MB, phases ${JSON.stringify(result.phases)}${result.verification ? `, verification ${JSON.stringify(result.verification)}` : ''}`)
    } catch (error) {
      await reporter.stop()
      if (!scheduled) throw error
      json.error('sync failed', { error: (error as Error).message })
      process.exitCode = 1
    } finally {
      closeStore(db)
    }
  },
}

/**
 * The test hooks at a named phase of the run: haltAt dies there with SIGKILL
 * (the kill -9 tests); holdAt blocks the run's thread there for holdMs, as a
 * long SQLite statement would (the tests that serving never waits for sync).
 */
function hooksAt({ haltAt, holdAt, holdMs }: TestHooks): ((phase: string) => void) | undefined {
  if (!haltAt && !holdAt) return undefined
  return (phase) => {
    if (phase === haltAt) process.kill(process.pid, 'SIGKILL')
    if (phase === holdAt) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, holdMs ?? 0)
  }
}
