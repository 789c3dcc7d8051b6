// A full load: the large tables from nothing, fast. Calls go to an unindexed
// staging table as stored (callCodec.ts), each with its place in its caller's
// sequence counted as it passes (derive/callerPlaces.ts), and are sorted into
// the clustered table once, in time order; the call indexes (calls_store, the
// second copy by store, among them) are built after. Listing
// rows, read in key order, get their running totals as they pass, and their
// day-major index (metrics_day) is built after them. Minute counts build up in
// memory as calls pass. Random-order inserts into a 20-million-row B-tree would
// be many times slower.
import type { Database, Statement } from 'bun:sqlite'
import { buildCallDays } from './derive/callDays'
import { callValues, STORED_CALL_COLUMNS, type StoredValue } from './callCodec'
import { CallTextIds } from './callTexts'
import { buildCallers, PLACE_IN_SEQUENCE_SQL, restartCallerChanges } from './derive/callers'
import { CallerPlaces } from './derive/callerPlaces'
import { MinuteCounts } from './derive/callMinutes'
import { MetricTotalsAsLoaded, METRIC_TOTALS } from './derive/metricTotals'
import { metricKey } from './listingFigures'
import { deriveProducts } from './derive/products'
import { deriveStores, storesVisible } from './derive/stores'
import { METRIC_VALUES, type CallRow, type MetricRow } from './rows'

const STORED = STORED_CALL_COLUMNS.join(', ')
const START = STORED_CALL_COLUMNS.indexOf('start')
const MOBILE = STORED_CALL_COLUMNS.indexOf('mobile')
const SUBSTATUS = STORED_CALL_COLUMNS.indexOf('substatus')
const WEBSITE = STORED_CALL_COLUMNS.indexOf('website_id')
/** Rows an INSERT statement of the full load writes (batched). */
const BATCH_ROWS = 16
/**
 * Rows read between two collections asked of the collector (`Bun.gc(false)`, which asks without
 * waiting). The callers' table (derive/callerPlaces.ts) counts towards the heap the collector lets
 * grow before it collects, and the rows read from the master then piled up: a full load of 27
 * million rows peaked at 680–860 MB, against 310 MB before the table. Asked every 50,000 rows, the
 * load stayed within 400–460 MB while it read.
 */
const COLLECT_EVERY = 50_000

export class FullLoad {
  /** the indexes of the large tables, dropped while they fill and built after (in key order for metrics, but day-major for metrics_day) */
  private indexes: string[]
  private visibleStores: Set<number>
  private minutes = new MinuteCounts()
  private metricTotals = new MetricTotalsAsLoaded()
  /** call_texts is kept through a full load: ids serving workers hold name the same texts (callTexts.ts) */
  private texts: CallTextIds
  /** the two large tables' rows, written BATCH_ROWS to a statement through the load */
  private metricRows: BatchedInsert
  private callRows: BatchedInsert
  private rowsRead = 0

  /**
   * `seq`: the run's feed position, which every call takes (store/feed.ts). `places`: each call's
   * place in its caller's sequence, counted as calls pass (tests give it smaller limits).
   */
  constructor(private client: Database, private seq: number, private step: (name: string) => void, private places = new CallerPlaces()) {
    for (const t of ['calls', 'feed_deleted', 'metrics', 'call_days', 'call_minutes']) client.run(`DELETE FROM ${t}`)
    // the small tables are in: which stores are visible is known, so minutes are counted as calls pass
    deriveStores(client)
    this.visibleStores = new Set(storesVisible(client))
    const indexes = client.query("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('calls', 'metrics') AND sql IS NOT NULL").all() as { name: string; sql: string }[]
    this.indexes = indexes.map((i) => i.sql)
    for (const i of indexes) client.run(`DROP INDEX ${i.name}`)
    // each call's place as counted and its store's visibility (from the set above) go in with it:
    // a look-up of stores per row in the sort into place cost 0.8 µs a call (17 s of a
    // 20-million-call load)
    client.run(`CREATE TABLE load_calls (${STORED}, place, visible)`)
    this.texts = new CallTextIds(client)
    const cums = METRIC_TOTALS.cums
    const metricColumns = 2 + METRIC_VALUES.length + cums.length
    this.metricRows = new BatchedInsert(client, `INSERT INTO metrics (k, website_id, metric_date, ${METRIC_VALUES.join(', ')}, ${cums.join(', ')}) VALUES`, metricColumns, (n) =>
      // each row's key from its own website_id and metric_date, the first two of its parameters
      `(${metricKey(`?${n + 1}`, `?${n + 2}`)}, ${Array.from({ length: metricColumns }, (_, i) => `?${n + i + 1}`).join(', ')})`)
    this.callRows = new BatchedInsert(client, 'INSERT INTO load_calls VALUES', STORED_CALL_COLUMNS.length + 2, () => `(${STORED_CALL_COLUMNS.map(() => '?').join(', ')}, ?, ?)`)
  }

  /** Listing rows, in (website_id, metric_date) order across calls. */
  metrics(rows: MetricRow[]): number {
    for (const r of rows) this.metricRows.row([r.website_id, r.metric_date, ...METRIC_VALUES.map((c) => r[c]), ...this.metricTotals.totalsOf(r)])
    this.metricRows.flush()
    this.collectNow(rows.length)
    return rows.length
  }

  /** A collection asked every COLLECT_EVERY rows read. */
  private collectNow(rows: number): void {
    if (Math.floor(this.rowsRead / COLLECT_EVERY) !== Math.floor((this.rowsRead += rows) / COLLECT_EVERY)) Bun.gc(false)
  }

  calls(rows: CallRow[]): number {
    for (const r of rows) {
      const values = callValues(r, this.texts)
      const visible = this.visibleStores.has(values[WEBSITE] as number)
      values.push(this.places.place(values[MOBILE] as number, values[START]!), visible ? 1 : 0)
      this.callRows.row(values)
      if (visible) this.minutes.add(values[START], values[SUBSTATUS])
    }
    this.callRows.flush()
    this.collectNow(rows.length)
    return rows.length
  }

  /** The calls sorted into place, their indexes, and every derived table. */
  finish(): void {
    // the callers' totals as counted, taken before the table goes and let go before the sorts
    let totals = this.places.totals()
    const counted = this.places.counted()
    // the rows read and the callers' table (134 MB at production size) let go before the sorts
    // take their memory: little is allocated after this, and the collector kept the table to the
    // end of the run. A load of fewer rows (fixtures, the demo) has little to let go.
    if (this.rowsRead >= COLLECT_EVERY) Bun.gc(true)
    if (totals) writeCallers(this.client, totals)
    totals = null
    this.step('full:callers as counted')
    this.client.run(`INSERT INTO calls (${STORED}, prev_calls_count, visible, feed_seq)
      SELECT ${STORED}, ${counted ? 'place' : PLACE_IN_SEQUENCE_SQL}, visible, ${this.seq}
      FROM load_calls ORDER BY start, call_log_id`)
    this.client.run('DROP TABLE load_calls')
    this.step('full:calls sorted into place')
    for (const sql of this.indexes) this.client.run(sql)
    this.step('full:call and listing indexes')
    this.places.renumberDisordered(this.client, this.seq)
    this.step('full:callers out of order renumbered')
    // counting stopped: the callers counted from the calls
    if (!counted) buildCallers(this.client)
    // every caller is written afresh: a server reads them all again (and the renumbering's entries go)
    restartCallerChanges(this.client, this.seq)
    this.step('full:callers')
    buildCallDays(this.client)
    this.step('full:call_days')
    this.minutes.write(this.client)
    deriveProducts(this.client)
    this.step('full:call_minutes and products')
  }
}

/**
 * The callers' totals as the load counted them, in key order (the table filled from its end), 256
 * to a statement: 4.4 million callers took 3.1 s so, 4.0 s sixteen to a statement.
 */
function writeCallers(client: Database, { mobiles, calls }: { mobiles: Float64Array; calls: Uint32Array }): void {
  client.run('DELETE FROM callers')
  const rows = new BatchedInsert(client, 'INSERT INTO callers (mobile, total) VALUES', 2, (n) => `(?${n + 1}, ?${n + 2})`, 256)
  const row: StoredValue[] = [0, 0] // one array for every row: row() copies its values
  for (let k = 0; k < mobiles.length; k++) {
    row[0] = mobiles[k]
    row[1] = calls[k]
    rows.row(row)
  }
  rows.flush()
}

/**
 * Rows written BATCH_ROWS (or `batch`) to a statement: an INSERT of one row cost 0.9–1.8 µs a
 * row, one of 8 to 32 rows 0.6–0.8 (the statement's call, step and reset paid once for them all).
 * `tuple(n)` is one row's VALUES tuple, its parameters numbered from n + 1. A batch's last rows
 * are written by `flush`.
 */
class BatchedInsert {
  private readonly many: Statement
  private readonly params: StoredValue[]
  private held = 0

  constructor(private client: Database, private insert: string, private columns: number, private tuple: (n: number) => string, private batch = BATCH_ROWS) {
    this.many = this.statement(batch)
    this.params = new Array<StoredValue>(batch * columns)
  }

  private statement(rows: number): Statement {
    return this.client.query(`${this.insert} ${Array.from({ length: rows }, (_, i) => this.tuple(i * this.columns)).join(', ')}`)
  }

  row(values: StoredValue[]): void {
    const { columns, params } = this
    for (let i = 0; i < columns; i++) params[this.held * columns + i] = values[i]
    if (++this.held === this.batch) {
      this.many.run(...params)
      this.held = 0
    }
  }

  flush(): void {
    if (this.held > 0) this.statement(this.held).run(...this.params.slice(0, this.held * this.columns))
    this.held = 0
  }
}
