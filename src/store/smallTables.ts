// The small tables (dealers, stores, employees, products, keys…): read whole
// and written afresh when the master's copy changed (sync/run.ts), so hard
// deletes and soft flags propagate.
import type { Database } from 'bun:sqlite'
import { SMALL_TABLES, type SmallRow, type SmallTable } from './rows'

export function clearTable(client: Database, table: SmallTable): void {
  client.run(`DELETE FROM ${table}`)
}

export function insertRows(client: Database, table: SmallTable, rows: SmallRow[]): number {
  const columns = SMALL_TABLES[table]
  const insert = client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
  for (const row of rows) insert.run(...columns.map((c) => row[c] ?? null))
  return rows.length
}

/** The meta key of a small table's digest: written by each sync run with the table's rows (sync/run.ts). */
export const digestKey = (table: SmallTable) => `digest:${table}`

/** The meta key of the master's fingerprint of a small table when the store last wrote it (sync/run.ts). */
export const fingerprintKey = (table: SmallTable) => `fingerprint:${table}`
