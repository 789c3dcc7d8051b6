// What a sync run is doing, for the person at the terminal and for logs: the
// phase, rows done of the total (the master's own counts at the start of the
// snapshot), rows a second and the time left. The run writes its state into
// shared memory; a reporter thread (progressReporter.ts) prints it, so a line
// still appears on time while the run's own thread is busy in one long SQLite
// statement (a full load's sort takes minutes).
import { Worker } from 'node:worker_threads'
import { compiled } from '../self'

const LABEL_BYTES = 200
// Float64 slots: done, total, phase started (ms), run started (ms), label version, label length
const DONE = 0
const TOTAL = 1
const PHASE_AT = 2
const RUN_AT = 3
const VERSION = 4
const LENGTH = 5

interface ProgressState {
  phase: string
  done: number
  total: number
  phaseMs: number
  runMs: number
}

/** The run's side: cheap enough to call for every batch. */
export class Progress {
  readonly memory = new SharedArrayBuffer(6 * 8 + LABEL_BYTES)
  private numbers = new Float64Array(this.memory, 0, 6)
  private label = new Uint8Array(this.memory, 48, LABEL_BYTES)

  constructor(private now: () => number = Date.now) {
    this.numbers[RUN_AT] = now()
    this.phase('connecting to the master')
  }

  /** A new phase: its rows start from 0; total 0 when it is not counted in rows. */
  phase(name: string, total = 0): void {
    const bytes = new TextEncoder().encode(name).slice(0, LABEL_BYTES)
    this.numbers[VERSION]++ // odd while the label is being written
    this.label.set(bytes)
    this.numbers[LENGTH] = bytes.length
    this.numbers[DONE] = 0
    this.numbers[TOTAL] = total
    this.numbers[PHASE_AT] = this.now()
    this.numbers[VERSION]++
  }

  add(rows: number): void {
    this.numbers[DONE] += rows
  }
}

/** The reporter's side: a consistent copy of the state (retried while a new label is being written). */
export function readProgress(memory: SharedArrayBuffer, now = Date.now()): ProgressState {
  const numbers = new Float64Array(memory, 0, 6)
  const label = new Uint8Array(memory, 48, LABEL_BYTES)
  for (;;) {
    const version = numbers[VERSION]
    const phase = new TextDecoder().decode(label.slice(0, numbers[LENGTH]))
    const state = { phase, done: numbers[DONE], total: numbers[TOTAL], phaseMs: now - numbers[PHASE_AT], runMs: now - numbers[RUN_AT] }
    if (version % 2 === 0 && version === numbers[VERSION]) return state
  }
}

/** The facts of a progress line, as JSON fields. */
export function progressFields(s: ProgressState) {
  const rate = s.phaseMs > 0 ? (s.done * 1000) / s.phaseMs : 0
  const eta = s.total > 0 && rate > 0 ? Math.max(0, (s.total - s.done) / rate) : null
  return {
    phase: s.phase,
    rows_done: s.done,
    rows_total: s.total > 0 ? s.total : null,
    rows_per_s: Math.round(rate),
    eta_s: eta === null ? null : Math.round(eta),
    elapsed_s: Math.round(s.runMs / 1000),
  }
}

const count = (n: number) => Math.round(n).toLocaleString('en')
const duration = (s: number) => (s >= 90 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${Math.round(s)} s`)

/** The same facts for people: "sync: reading call_logs, 1,234,000 of 2,000,000 rows (62%), 98,000 rows/s, about 8 s left, 21 s in". */
export function progressText(s: ProgressState): string {
  const f = progressFields(s)
  const parts = [`sync: ${f.phase}`]
  if (f.rows_total !== null) parts.push(`${count(f.rows_done)} of ${count(f.rows_total)} rows (${Math.min(100, Math.floor((f.rows_done * 100) / f.rows_total))}%)`)
  else if (f.rows_done > 0) parts.push(`${count(f.rows_done)} rows`)
  if (f.rows_done > 0) parts.push(`${count(f.rows_per_s)} rows/s`)
  if (f.eta_s !== null) parts.push(`about ${duration(f.eta_s)} left`)
  parts.push(`${duration(f.elapsed_s)} in`)
  return parts.join(', ')
}

export type ReportMode = 'terminal' | 'lines' | 'json'

/**
 * Starts the reporter thread: on a terminal one live line on stderr, redrawn
 * every second; otherwise a line on stderr every 10 s; 'json' writes JSON lines
 * to stdout every 10 s (serve's scheduled sync, whose lines become serve's log).
 */
export function startReporter(progress: Progress, mode: ReportMode, everyMs = mode === 'terminal' ? 1000 : 10_000): { stop(): Promise<void> } {
  // in the binary the reporter is an entry point of its own, under the bundle's root (scripts/build.ts)
  const entry = compiled ? './sync/progressReporter.ts' : new URL('./progressReporter.ts', import.meta.url)
  const reporter = new Worker(entry, { workerData: { memory: progress.memory, mode, everyMs } })
  reporter.unref()
  return {
    async stop() {
      await reporter.terminate()
      if (mode === 'terminal') process.stderr.write('\r\x1b[K')
    },
  }
}
