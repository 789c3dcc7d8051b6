// data_as_of (changes.md): the master's own clock (NOW() on the master, the
// clock of call_start_time) when the snapshot behind the served data was read.
// A sync writes it in the transaction that commits its data, so a reader's
// snapshot always holds the value that matches it; fixtures and the demo store
// write the time they were seeded, on the same clock.
import type { Database } from 'bun:sqlite'
import type { Store } from './open'
import { writeMeta } from './meta'
import { PER_VERSION, perVersion } from './snapshot'

const KEY = 'data_as_of'

export function setDataAsOf(client: Database, value: string): void {
  writeMeta(client, KEY, value)
}

/** Now on the master's clock (India Standard Time, UTC+5:30), for data seeded here. */
export function istNow(now = Date.now()): string {
  return new Date(now + 330 * 60_000).toISOString().slice(0, 19).replace('T', ' ')
}

/**
 * The value for the snapshot being read. A store synced before this value was
 * kept has none until its next run; it then reports the start of its last good
 * run on the master's clock, and a store never synced nor seeded reports null.
 */
export const dataAsOf = perVersion((db: Store): string | null => {
  const kept = db.$client.query<{ value: string }, [string]>(`${PER_VERSION} SELECT value FROM meta WHERE key = ?`).get(KEY)
  if (kept) return kept.value
  const lastOk = db.$client.query<{ started_at: string }, []>(`${PER_VERSION} SELECT started_at FROM sync_runs WHERE ok = 1 ORDER BY id DESC LIMIT 1`).get()
  return lastOk ? istNow(Date.parse(lastOk.started_at)) : null
})
