// Running totals within a store, for the per-store tables that answer a range
// total with two seeks (metrics, call_days): each row holds the sums of its
// store's increments up to and including itself.
import type { Database } from 'bun:sqlite'

export interface RunningTotals<Row> {
  table: string
  /** SQL over ?1 (a store) and ?2 (a key value, a day): the store's rows before ?2, and from ?2 on */
  before: string
  from: string
  /** the SQL ordering a store's rows */
  order: string
  /** the columns that name a row, for its update */
  id: readonly string[]
  /** the columns an increment is computed from */
  read: readonly string[]
  /** what a row adds to each total, in the order of `cums` */
  increments(row: Row): number[]
  cums: readonly string[]
}

/** Sums as a store's rows go by in key order. */
export class Accumulator<Row> {
  private sums: number[]

  constructor(private spec: RunningTotals<Row>, base?: number[]) {
    this.sums = base ? [...base] : spec.cums.map(() => 0)
  }

  add(row: Row): number[] {
    const add = this.spec.increments(row)
    for (let i = 0; i < add.length; i++) this.sums[i] += add[i]
    return this.sums
  }
}

/**
 * Reruns one store's totals from `from` on: the row just before gives the base
 * (one seek), and only rows whose totals change are written.
 */
function rerunTotals<Row>(client: Database, spec: RunningTotals<Row>, websiteId: number, from: string): void {
  const { table, id, read, cums, order } = spec
  const base = client.query(`SELECT ${cums.join(', ')} FROM ${table} WHERE ${spec.before} ORDER BY ${order} DESC LIMIT 1`).values(websiteId, from)[0] as number[] | undefined
  const rows = client.query(`SELECT ${id.join(', ')}, ${read.join(', ')}, ${cums.join(', ')} FROM ${table} WHERE ${spec.from} ORDER BY ${order}`).all(websiteId, from) as Record<string, number | string>[]
  const update = client.query(`UPDATE ${table} SET ${cums.map((c) => `${c} = ?`).join(', ')} WHERE ${id.map((c) => `${c} = ?`).join(' AND ')}`)
  const sums = new Accumulator(spec, base)
  for (const row of rows) {
    const now = sums.add(row as Row)
    if (cums.some((c, i) => row[c] !== now[i])) update.run(...now, ...id.map((c) => row[c]))
  }
}

/** Reruns every given store from its earliest changed key, in store order (neighbouring rows share pages). */
export function rerunStores<Row>(client: Database, spec: RunningTotals<Row>, earliest: Map<number, string>): void {
  for (const [websiteId, from] of [...earliest].sort((a, b) => a[0] - b[0])) rerunTotals(client, spec, websiteId, from)
}
