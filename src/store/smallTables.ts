// The small tables (dealers, stores, employees, products, keys…): read whole
// when the master's copy changed (sync/run.ts), so hard deletes and soft flags
// propagate. A full load writes them afresh; an incremental run writes only the
// rows that differ from the master's.
import type { Database } from 'bun:sqlite'
import { SMALL_TABLES, type SmallRow, type SmallTable, type Value } from './rows'

function insertRows(client: Database, table: SmallTable, rows: SmallRow[]): number {
  const columns = SMALL_TABLES[table]
  const insert = client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
  for (const row of rows) insert.run(...columns.map((c) => row[c] ?? null))
  return rows.length
}

/** A small table brought to the master's rows a batch at a time; `finish` says how many rows it wrote or removed. */
export interface TableWrite {
  take(rows: SmallRow[]): void
  finish(): number
}

/** The table emptied, then every row written: a full load's (and the fixtures', store/load.ts). */
export function rewriteTable(client: Database, table: SmallTable): TableWrite {
  client.run(`DELETE FROM ${table}`)
  let written = 0
  return {
    take: (rows) => void (written += insertRows(client, table, rows)),
    finish: () => written,
  }
}

/**
 * Only the rows that differ written: the master's rows compared with the stored ones by the
 * table's key, column by column, then the stored rows the master no longer has and those it
 * changed removed, and the changed and new ones inserted (all removals first, so a value a
 * unique index holds can pass from one row to another). A run usually changes a row or two of
 * a table (a store renamed, an image gone), where writing the whole table again rewrote all its
 * pages and its indexes' (product_images and its index, employee_dealers, stores). Values are
 * compared strictly: one that equals the stored value is stored as it; a value stored under
 * another type (a number in a text column) counts as changed and is written again, never kept
 * wrong.
 */
export function updateTable(client: Database, table: SmallTable): TableWrite {
  const columns = SMALL_TABLES[table] as readonly string[]
  const keys = client
    .query<{ name: string; pk: number }, []>(`SELECT name, pk FROM pragma_table_info('${table}') WHERE pk > 0 ORDER BY pk`)
    .all()
    .map((c) => c.name)
  const keyAt = keys.map((k) => columns.indexOf(k))
  if (keys.length === 0 || keyAt.includes(-1)) throw new Error(`${table}: its key is not among the columns sync writes`)
  // a one-column key is its value (a number and its text are two keys, as in JSON), else its values as JSON
  const one = keyAt.length === 1 ? keyAt[0] : -1
  const keyOfStored = (values: readonly Value[]) => (one >= 0 ? values[one] : JSON.stringify(keyAt.map((i) => values[i])))
  const keyOfRow = (row: SmallRow) => (one >= 0 ? (row[columns[one]] ?? null) : JSON.stringify(keys.map((k) => row[k] ?? null)))
  const same = (row: SmallRow, old: readonly Value[]) => {
    for (let i = 0; i < columns.length; i++) if ((row[columns[i]] ?? null) !== old[i]) return false
    return true
  }
  const stored = new Map<Value, Value[]>()
  for (const values of client.query<Value[], []>(`SELECT ${columns.join(', ')} FROM ${table}`).values() as Value[][]) stored.set(keyOfStored(values), values)
  const remove: Value[][] = [] // keys, as stored
  const insert: SmallRow[] = []
  return {
    take(rows) {
      for (const row of rows) {
        const key = keyOfRow(row)
        const old = stored.get(key)
        if (old !== undefined) {
          stored.delete(key) // seen: what is left at the end the master no longer has
          if (same(row, old)) continue
          remove.push(keyAt.map((i) => old[i]))
        }
        insert.push(row)
      }
    },
    finish() {
      for (const old of stored.values()) remove.push(keyAt.map((i) => old[i]))
      const removeRow = client.query(`DELETE FROM ${table} WHERE ${keys.map((k) => `${k} = ?`).join(' AND ')}`)
      for (const key of remove) removeRow.run(...key)
      insertRows(client, table, insert)
      return stored.size + insert.length
    },
  }
}

/** The meta key of a small table's digest: written by each sync run with the table's rows (sync/run.ts). */
export const digestKey = (table: SmallTable) => `digest:${table}`

/** The meta key of the master's fingerprint of a small table when the store last wrote it (sync/run.ts). */
export const fingerprintKey = (table: SmallTable) => `fingerprint:${table}`
