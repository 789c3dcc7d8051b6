// Rows in hand into a read store, through the same code sync runs: a whole
// store the way a full load builds it (the test and demo fixtures), and changed
// rows the way an incremental run applies them (tests that add a few calls).
// No sync run is recorded: the store has still never been synced.
import { Changes } from './changes'
import { CallerPlaces } from './derive/callerPlaces'
import { storeFaces } from './derive/stores'
import { openFeedSeq } from './feed'
import { istNow, setDataAsOf } from './freshness'
import { FullLoad } from './fullLoad'
import type { Store } from './open'
import { SMALL_TABLES, type CallRow, type MetricRow, type SmallTable, type StoreRows } from './rows'
import { rewriteTable } from './smallTables'

/**
 * `dataAsOf`: the master's clock the rows stand for; by default the time they are loaded.
 * `places`: how the load counts callers' places; by default a table sized for these calls (a
 * production-size one, whole, made each fixture load three times slower; tests give smaller limits).
 */
export function loadRows(db: Store, rows: StoreRows, dataAsOf = istNow(), places = CallerPlaces.forCalls(rows.calls.length)): void {
  const client = db.$client
  client.transaction(() => {
    setDataAsOf(client, dataAsOf)
    const seq = openFeedSeq(client, dataAsOf)
    for (const table of Object.keys(SMALL_TABLES) as SmallTable[]) {
      rewriteTable(client, table).take(rows[table])
    }
    const load = new FullLoad(client, seq, () => {}, places)
    // a full load takes listing rows in key order, as the master sends them
    load.metrics([...rows.metrics].sort((a, b) => a.website_id - b.website_id || (a.metric_date < b.metric_date ? -1 : 1)))
    load.calls(rows.calls)
    load.finish()
  })()
}

/** `masterNow`: the master's clock at the run, which numbers its feed position; by default now. */
export function applyChanges(db: Store, rows: { calls?: CallRow[]; metrics?: MetricRow[] }, masterNow = istNow()): void {
  const client = db.$client
  client.transaction(() => {
    // the small tables derived again, as a sync run that wrote them would
    const changes = new Changes(client, storeFaces(client), openFeedSeq(client, masterNow), { stores: true, products: true }, () => {})
    changes.metrics(rows.metrics ?? [])
    changes.calls(rows.calls ?? [])
    changes.refresh()
  })()
}
