// What a request reads: one SQLite read snapshot, and the in-memory copies of
// the small tables (store/directory.ts, store/catalogue.ts) that match it. A
// copy is rebuilt only when the store's data version moves, that is once after
// each sync commits, never per request.
//
// A serving connection (openStore's `serving`: query_only, it never writes)
// shares one read snapshot between every request of one turn of the event
// loop: the first opens it, the turn's end closes it. Opening one costs two
// statements and four to six system calls (the WAL read lock is taken and
// released with file locks), as much as a small answer's own queries; under
// load a turn holds dozens of requests. A request then sees every sync that
// committed before its turn began, and its key check, totals and page all
// come from that one snapshot. Other connections (tests, the demo seeding,
// sync) open a snapshot per call, as they may write in between.
import type { Store } from './open'
import type { SmallTable } from './rows'
import { digestKey } from './smallTables'

/** Marks a statement that runs once per data version, not per request (the query-plan test counts them). */
export const PER_VERSION = '/* once per data version */'

interface Tracked {
  /** the data version of the snapshot last opened on this connection */
  version: string
  /** a serving connection: snapshots last a turn of the event loop */
  perTurn: boolean
  /** the turn's snapshot is open */
  open: boolean
}
const tracked = new WeakMap<Store, Tracked>()

const trackedOf = (db: Store): Tracked => {
  let t = tracked.get(db)
  if (!t) tracked.set(db, (t = { version: '', perTurn: false, open: false }))
  return t
}

/** A connection that only serves reads: its snapshots are shared by the requests of one event-loop turn. */
export function shareSnapshotsPerTurn(db: Store): void {
  trackedOf(db).perTurn = true
}

/**
 * PRAGMA data_version moves when another connection commits (sync); total_changes
 * counts this connection's own writes (tests and the demo seed through it). Read
 * inside a transaction, both describe that transaction's snapshot.
 */
function noteVersion(db: Store): string {
  // two statements: pragma_data_version as a table-valued function costs more than both (3.8 against 2.8 µs)
  const client = db.$client
  const dv = client.query<{ data_version: number }, []>('PRAGMA data_version').get()!.data_version
  const own = client.query<{ n: number }, []>('SELECT total_changes() AS n').get()!.n
  return (trackedOf(db).version = `${dv}.${own}`)
}

/**
 * Runs a handler's queries in one read transaction. The totals and the page of
 * an answer then come from the same snapshot even when a sync commits between
 * them, and SQLite takes its WAL read lock once instead of once per statement.
 * The in-memory tables are brought to the same snapshot first. Handlers are
 * synchronous, so no other request's statements can interleave.
 */
export function readSnapshot<T>(db: Store, read: () => T): T {
  const t = trackedOf(db)
  if (t.open) return read()
  const client = db.$client
  if (client.inTransaction) {
    noteVersion(db) // a caller already holds one (tests, demo seeding)
    return read()
  }
  client.query('BEGIN').run()
  if (t.perTurn) {
    t.open = true
    setImmediate(() => endTurn(db, t))
    noteVersion(db) // its first read opens the snapshot
    return read()
  }
  try {
    noteVersion(db)
    return read()
  } finally {
    client.query('COMMIT').run() // read-only: nothing to roll back
  }
}

function endTurn(db: Store, t: Tracked): void {
  t.open = false
  try {
    if (db.$client.inTransaction) db.$client.query('COMMIT').run()
  } catch {
    // the connection was closed within the turn (a worker stopping): nothing is held any more
  }
}

/** Ends the turn's snapshot at once: before a connection closes. */
export function endSnapshot(db: Store): void {
  const t = trackedOf(db)
  if (t.open) endTurn(db, t)
}

/**
 * A value derived from the store, rebuilt when the data version last noted on
 * its connection differs from the one it was built at. `build` runs inside the
 * current snapshot (or, outside one, reads the latest commit).
 */
export function perVersion<T>(build: (db: Store) => T): (db: Store) => T {
  const built = new WeakMap<Store, { version: string; value: T }>()
  return (db) => {
    const version = trackedOf(db).version || noteVersion(db)
    const have = built.get(db)
    if (have && have.version === version) return have.value
    const value = build(db)
    built.set(db, { version, value })
    return value
  }
}

/**
 * A value derived from some small tables only, kept while their content is the
 * same. A sync rewrites every small table each run, so each commit is a new data
 * version; it also keeps a digest of each table's rows (meta digest:<table>,
 * sync/run.ts), and the value is built again only when one of those moves (the
 * directory took 20 ms at production size, the catalogue 50, on the first
 * request after every commit). A store without the digests (fixtures, the demo,
 * keys --demo) builds it once per data version.
 */
export function perContent<T>(tables: SmallTable[], build: (db: Store) => T): (db: Store) => T {
  const sql = `${PER_VERSION} SELECT value FROM meta WHERE key IN (${tables.map(() => '?').join(', ')}) ORDER BY key`
  const keys = tables.map(digestKey)
  const contentOf = perVersion((db: Store): string | null => {
    const rows = db.$client.query<{ value: string }, string[]>(sql).all(...keys)
    return rows.length === tables.length ? rows.map((r) => r.value).join(' ') : null
  })
  const perVersionValue = perVersion(build)
  const byContent = new WeakMap<Store, { content: string; value: T }>()
  return (db) => {
    const content = contentOf(db)
    if (content === null) return perVersionValue(db)
    const have = byContent.get(db)
    if (have?.content === content) return have.value
    const value = build(db)
    byContent.set(db, { content, value })
    return value
  }
}
