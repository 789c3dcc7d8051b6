// meta: the values sync keeps between runs (watermarks, digests, data_as_of, the callers' log horizon).
import type { Database } from 'bun:sqlite'

/** A value kept in meta, read outside a run too. */
export function storeMeta(client: Database, key: string): string | null {
  return (client.query('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | null)?.value ?? null
}

/** Sets a value in meta, in the writer's transaction. */
export function writeMeta(client: Database, key: string, value: string): void {
  client.query('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value)
}
