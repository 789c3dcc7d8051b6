// The record of sync runs, as /health reports it.
import type { Store } from './open'

export interface SyncRun {
  started_at: string
  finished_at: string | null
  ok: boolean | null
  error: string | null
}

export function lastSyncRuns(db: Store): { last: SyncRun | null; lastOk: SyncRun | null } {
  const q = (where: string) => {
    const row = db.$client
      .query<{ started_at: string; finished_at: string | null; ok: number | null; error: string | null }, []>(
        `SELECT started_at, finished_at, ok, error FROM sync_runs ${where} ORDER BY id DESC LIMIT 1`,
      )
      .get()
    return row ? { ...row, ok: row.ok === null ? null : row.ok === 1 } : null
  }
  return { last: q(''), lastOk: q('WHERE ok = 1') }
}
