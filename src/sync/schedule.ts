// serve with SYNC_INTERVAL: each run is a `sync` process of its own (this same
// program, `sync --scheduled`), so no thread that answers requests ever does
// sync's work: its SQLite writes and sorts, and collecting its garbage. One run
// at a time; the next starts an interval after the last one ended. The run
// writes JSON lines, which go on to serve's log. stop() sends it SIGTERM, which
// rolls it back at its next step; one busy in a long SQLite statement past
// STOP_GRACE_MS is killed, which SQLite rolls back as well. A run whose serve
// has died stops by itself.
import { getPriority, setPriority } from 'node:os'
import { childEnvironment } from '../config'
import type { Logger } from '../log'
import { selfCommand } from '../self'

/**
 * How far below serve's CPU priority a run works (nice, 19 at most), so that a request
 * that arrives while a run keeps the cores busy is answered before the run's next
 * slice; when nothing else runs, the run has the cores all the same. With one worker at
 * scale 1, a probe's p99 during a day's run 2.96–3.26 ms against 4.64–4.83 without
 * (docs/benchmarks.md).
 */
const RUN_NICE = 10
/** within serve's own 10 s for draining requests */
const STOP_GRACE_MS = 8_000

interface ScheduleOptions {
  dbPath: string
  mysqlUrl: string
  intervalSeconds: number
  log: Pick<Logger, 'info' | 'warn' | 'error'>
  /** the first run waits for this (serve: its workers ready) */
  after?: Promise<unknown>
}

export function startSyncSchedule({ dbPath, mysqlUrl, intervalSeconds, log, after = Promise.resolve() }: ScheduleOptions) {
  // the run reads its settings from the environment; serve's other settings stay out of it
  const runEnv = childEnvironment({ DB_PATH: dbPath, MYSQL_URL: mysqlUrl })

  let stopping = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let child: ReturnType<typeof Bun.spawn> | undefined

  async function runOnce(): Promise<void> {
    const proc = Bun.spawn(selfCommand(['sync', '--scheduled']), { env: runEnv, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
    child = proc
    try {
      setPriority(proc.pid, Math.min(19, getPriority() + RUN_NICE))
    } catch {
      // a system that forbids it runs the sync at serve's priority, as before
    }
    const outcome: { result?: Record<string, unknown>; error?: string } = {}
    const passOn = (line: string) => {
      let entry: Record<string, unknown> | undefined
      try {
        entry = JSON.parse(line)
      } catch {}
      if (!entry || typeof entry !== 'object') return log.error('sync output', { line })
      const { time: _, level, msg, ...fields } = entry as { time?: string; level?: string; msg?: string }
      // the run's last line is its outcome, told below with what serve knows
      if (msg === 'sync ok') outcome.result = fields
      else if (msg === 'sync failed') outcome.error = String((fields as { error?: unknown }).error)
      else log[level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'info'](String(msg), fields)
    }
    await Promise.all([lines(proc.stdout, passOn), lines(proc.stderr, passOn), proc.exited])
    child = undefined
    if (stopping) log.error('sync stopped and rolled back', { error: outcome.error ?? `exit ${proc.signalCode ?? proc.exitCode}` })
    else if (proc.exitCode === 0 && outcome.result) log.info('sync ok', outcome.result)
    else log.error('sync failed', { error: outcome.error ?? `the sync process ended with ${proc.signalCode ?? `exit code ${proc.exitCode}`}` })
  }

  const tick = async () => {
    running = runOnce().catch((error) => log.error('sync failed', { error: (error as Error).message }))
    await running
    running = undefined
    if (!stopping) timer = setTimeout(tick, intervalSeconds * 1000)
  }
  void after.then(() => {
    if (!stopping) timer = setTimeout(tick, 0)
  })
  return {
    async stop() {
      stopping = true
      clearTimeout(timer)
      const run = child
      run?.kill('SIGTERM') // the run closes the master connection and rolls back
      const grace = setTimeout(() => run?.kill('SIGKILL'), STOP_GRACE_MS)
      await running
      clearTimeout(grace)
    },
  }
}

/** Calls back with each whole line of a stream. */
async function lines(stream: ReadableStream<Uint8Array>, each: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder()
  let rest = ''
  for await (const chunk of stream) {
    rest += decoder.decode(chunk, { stream: true })
    let nl: number
    while ((nl = rest.indexOf('\n')) >= 0) {
      const line = rest.slice(0, nl)
      rest = rest.slice(nl + 1)
      if (line.trim()) each(line)
    }
  }
  if (rest.trim()) each(rest)
}
