// The thread that prints a sync run's progress (sync/progress.ts), so the
// lines keep their pace while the run's thread is busy. Writes with one system
// call a line, straight to the file descriptor: a thread's own stream could
// wait for the busy thread.
import { writeSync } from 'node:fs'
import { workerData } from 'node:worker_threads'
import { progressFields, progressText, readProgress, type ReportMode } from './progress'

const { memory, mode, everyMs } = workerData as { memory: SharedArrayBuffer; mode: ReportMode; everyMs: number }

function report(): void {
  const state = readProgress(memory)
  if (mode === 'terminal') writeSync(2, `\r\x1b[K${progressText(state)}`)
  else if (mode === 'lines') writeSync(2, `${progressText(state)}\n`)
  else writeSync(1, `${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'sync progress', ...progressFields(state) })}\n`)
}

setInterval(report, everyMs)
