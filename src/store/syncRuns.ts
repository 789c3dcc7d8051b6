// The record of sync runs: each run's start, finish, result and figures, as
// /health and /metrics report them.
import type { Database } from 'bun:sqlite'
import type { Store } from './open'

interface RunRecord {
  started_at: string
  finished_at: string | null
  ok: boolean | null
  error: string | null
}

const now = () => new Date().toISOString()

/**
 * Records the start of a run, and first closes the record of any run that never
 * finished: its process died (kill -9, power loss, or stopped by force while
 * busy), and SQLite rolled its writes back. A run still going in another process
 * holds the write lock, so its record cannot be touched here.
 */
export function startRunRecord(client: Database): number {
  const at = now()
  client.query("UPDATE sync_runs SET finished_at = ?, ok = 0, error = 'interrupted: its process ended before the run finished' WHERE finished_at IS NULL").run(at)
  return Number(client.query('INSERT INTO sync_runs (started_at) VALUES (?)').run(at).lastInsertRowid)
}

export function finishRunRecord(client: Database, id: number, stats: object): void {
  client.query('UPDATE sync_runs SET finished_at = ?, ok = 1, stats = ? WHERE id = ?').run(now(), JSON.stringify(stats), id)
}

export function failRunRecord(client: Database, id: number, error: string, stats: object): void {
  client.query('UPDATE sync_runs SET finished_at = ?, ok = 0, error = ?, stats = ? WHERE id = ?').run(now(), error, JSON.stringify(stats), id)
}

export function syncRunCounts(db: Store): { result: string; n: number }[] {
  return db.$client
    .query<{ result: string; n: number }, []>(
      "SELECT CASE ok WHEN 1 THEN 'ok' WHEN 0 THEN 'failed' ELSE 'running' END AS result, count(*) AS n FROM sync_runs GROUP BY 1",
    )
    .all()
}

export function lastSyncRuns(db: Store): { last: RunRecord | null; lastOk: RunRecord | null; lastOkStats: { tables?: Record<string, { read: number; written: number }> } | null } {
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
