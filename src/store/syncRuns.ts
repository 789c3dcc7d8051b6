// The record of sync runs, as /health reports it.
import type { Store } from './open'

export interface SyncRun {
  started_at: string
  finished_at: string | null
  ok: boolean | null
  error: string | null
}

export function syncRunCounts(db: Store): { result: string; n: number }[] {
  return db.$client
    .query<{ result: string; n: number }, []>(
      "SELECT CASE ok WHEN 1 THEN 'ok' WHEN 0 THEN 'failed' ELSE 'running' END AS result, count(*) AS n FROM sync_runs GROUP BY 1",
    )
    .all()
}

export function lastSyncRuns(db: Store): { last: SyncRun | null; lastOk: SyncRun | null; lastOkStats: { tables?: Record<string, { read: number; written: number }> } | null } {
  const q = (where: string) => {
    const row = db.$client
      .query<{ started_at: string; finished_at: string | null; ok: number | null; error: string | null }, []>(
        `SELECT started_at, finished_at, ok, error FROM sync_runs ${where} ORDER BY id DESC LIMIT 1`,
      )
      .get()
    return row ? { ...row, ok: row.ok === null ? null : row.ok === 1 } : null
  }
  const stats = db.$client.query<{ stats: string | null }, []>('SELECT stats FROM sync_runs WHERE ok = 1 ORDER BY id DESC LIMIT 1').get()?.stats
  return { last: q(''), lastOk: q('WHERE ok = 1'), lastOkStats: stats ? JSON.parse(stats) : null }
}
