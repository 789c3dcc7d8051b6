// What a request reads: one SQLite read snapshot, and the in-memory copies of
// the small tables (store/directory.ts, store/products.ts) that match it. A
// copy is rebuilt only when a sync changed its tables, never per request.
//
// A serving connection (openStore's `serving`: query_only, it never writes)
// holds one read snapshot from request to request: opening one costs two
// statements and four to six system calls (the WAL read lock is taken and
// released with file locks), as much as a small answer's own queries. A
// second connection, the watcher, looks every POLL_MS for a commit. When one
// leaves the small tables as they were, the serving connection lets its
// snapshot go and the next request opens the newest. When one changed them,
// the watcher first builds the new copies from the new snapshot, a slice of
// rows a turn of the event loop between requests, and requests go on meanwhile
// in the old snapshot with the old copies: no request waits for a copy (at
// production size the directory took up to 80 ms, the catalogue 90, on the
// first request after a sync). A request thus sees a commit within a poll or,
// when it changed a small table, once that table's copy is ready; its key
// check, totals and page all come from one snapshot. A snapshot is opened again
// every RENEW_MS, under steady requests or none, so a sync's checkpoint can
// empty the WAL; it is held while idle too, so that a commit always finds one
// to answer from while its copies are built (an idle worker that let its
// snapshot go built them on its next request, in one piece). Other
// connections (tests, the demo seeding, sync) open a snapshot per call, as
// they may write in between.
import { Database } from 'bun:sqlite'
import { BUSY_TIMEOUT_MS, fileOf, type Store } from './open'
import type { SmallTable } from './rows'
import { digestKey } from './smallTables'

/** Marks a statement that runs once per data version, not per request (the query-plan test counts them). */
export const PER_VERSION = '/* once per data version */'

interface Tracked {
  /** the data version of the snapshot last opened on this connection */
  version: string
  /** a serving connection's watcher and state; null for the others */
  serving: Serving | null
  /** a serving connection holds a snapshot */
  open: boolean
}
const tracked = new WeakMap<Store, Tracked>()

const trackedOf = (db: Store): Tracked => {
  let t = tracked.get(db)
  if (!t) tracked.set(db, (t = { version: '', serving: null, open: false }))
  return t
}

/** How often a serving connection's watcher looks for a commit. */
const POLL_MS = 10
/**
 * A snapshot older than this is opened again, with requests or without, so that a
 * sync's checkpoint, which waits for every reader to have moved past its run
 * and then to read the store file alone, finds the WAL free to start over
 * (store/syncRun.ts); held for good, the WAL grew by each run's writes.
 */
const RENEW_MS = 100
/** The longest a slice of building a copy runs before requests get their turn. */
const SLICE_MS = 1

interface Serving {
  /** a second connection to the same file: it sees commits, and reads the copies a new version needs */
  watcher: Database | null
  /** the watcher's data version when it last looked */
  seen: number
  /** copies of a new version are being built */
  preparing: boolean
  /** when the held snapshot was opened */
  openedAt: number
  timer: ReturnType<typeof setInterval>
}

/** A connection that only serves reads: it holds its snapshot from request to request (see the top of this file). */
export function holdSnapshots(db: Store): void {
  const t = trackedOf(db)
  const path = fileOf(db.$client)
  let watcher: Database | null = null
  let seen = 0
  if (path !== null) {
    try {
      watcher = new Database(path, { readwrite: true }) // never created here: a file that went away stays away
      watcher.run('PRAGMA query_only = 1')
      watcher.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
      seen = dataVersion(watcher)
    } catch {
      watcher?.close()
      watcher = null // requests find out what is wrong with the file; each poll then moves on
    }
  }
  const serving: Serving = { watcher, seen, preparing: false, openedAt: 0, timer: setInterval(() => watch(db, t, serving), POLL_MS) }
  serving.timer.unref?.()
  t.serving = serving
}

const dataVersion = (client: Database) => client.query<{ data_version: number }, []>('PRAGMA data_version').get()!.data_version

/** The watcher's look: a commit moves the serving connection on, once the copies it needs are built; else its snapshot is renewed. */
function watch(db: Store, t: Tracked, s: Serving): void {
  if (s.preparing) return
  let moved = false
  try {
    if (s.watcher) {
      const version = dataVersion(s.watcher)
      moved = version !== s.seen
      s.seen = version
    } else moved = true // no watcher (the file went away): each poll moves on, as per-request snapshots would
  } catch {
    moved = true
  }
  if (moved && s.watcher) return prepare(db, t, s, s.watcher)
  if (moved) letGo(db, t)
  else if (!t.open || performance.now() - s.openedAt > RENEW_MS) renew(db, t, s)
}

/** The snapshot let go and opened again at once: the same commit (the watcher just saw none), read from the store file alone once a checkpoint has copied the WAL back. */
function renew(db: Store, t: Tracked, s: Serving): void {
  letGo(db, t)
  try {
    hold(db, t, s)
  } catch {
    letGo(db, t) // the next request opens one
  }
}

/** Opens the newest snapshot on a serving connection and holds it until the watcher lets it go. */
function hold(db: Store, t: Tracked, s: Serving): void {
  db.$client.query('BEGIN').run()
  t.open = true
  s.openedAt = performance.now()
  noteVersion(db) // its first read opens the snapshot
}

function letGo(db: Store, t: Tracked): void {
  if (!t.open) return
  t.open = false
  try {
    if (db.$client.inTransaction) db.$client.query('COMMIT').run()
  } catch {
    // the connection was closed (a worker stopping): nothing is held any more
  }
}

/**
 * Builds, from the watcher's snapshot of the newest commit, each copy whose
 * tables changed, a slice a turn; then lets the serving snapshot go, so the
 * next request opens the newest and finds its copies ready. Should a later
 * commit change the tables again before that request, it builds that copy itself.
 */
function prepare(db: Store, t: Tracked, s: Serving, watcher: Database): void {
  const builds: Build[] = []
  const giveUp = () => {
    for (const build of builds.splice(0)) {
      try {
        build.stop()
      } catch {
        // its statement went with the connection
      }
    }
  }
  const done = () => {
    giveUp()
    try {
      if (watcher.inTransaction) watcher.run('COMMIT')
    } catch {
      // closed under us: a worker stopping
    }
    s.preparing = false
    letGo(db, t)
  }
  try {
    watcher.run('BEGIN')
    const at = { $client: watcher } as Store
    for (const ahead of aheads) {
      const build = ahead(db, at)
      if (build) builds.push(build)
    }
  } catch {
    giveUp() // requests build what they need, as before
  }
  if (builds.length === 0) return done()
  s.preparing = true
  const slice = () => {
    if (t.serving !== s) return done() // the connection ended meanwhile
    const until = performance.now() + SLICE_MS
    try {
      while (builds.length > 0 && performance.now() < until) if (builds[0].step()) builds.shift()
    } catch {
      giveUp()
    }
    if (builds.length > 0) setImmediate(slice)
    else done()
  }
  setImmediate(slice)
}

/** A serving connection's held snapshot: when it was opened (`performance.now()`) and its data version as noted then; null when it holds none (tests). */
export const heldSnapshot = (db: Store): { since: number; version: string } | null => {
  const t = trackedOf(db)
  return t.open && t.serving ? { since: t.serving.openedAt, version: t.version } : null
}

/** Whether a serving connection's watcher is building what a commit needs (tests). */
export const watcherBuilding = (db: Store): boolean => trackedOf(db).serving?.preparing ?? false

/** Ends a serving connection's snapshot and its watcher: before the connection closes. */
export function endSnapshot(db: Store): void {
  const t = trackedOf(db)
  letGo(db, t)
  const s = t.serving
  if (!s) return
  t.serving = null
  clearInterval(s.timer)
  try {
    s.watcher?.close()
  } catch {
    // closed already
  }
}

/**
 * PRAGMA data_version moves when another connection commits (sync); total_changes
 * counts this connection's own writes (tests and the demo seed through it). Read
 * inside a transaction, both describe that transaction's snapshot.
 */
function noteVersion(db: Store): string {
  // two statements: pragma_data_version as a table-valued function costs more than both (3.8 against 2.8 µs)
  const client = db.$client
  const dv = dataVersion(client)
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
  const serving = t.serving
  if (t.open) return read()
  const client = db.$client
  if (client.inTransaction) {
    noteVersion(db) // a caller already holds one (tests, demo seeding)
    return read()
  }
  if (serving) {
    hold(db, t, serving)
    return read()
  }
  client.query('BEGIN').run()
  try {
    noteVersion(db)
    return read()
  } finally {
    client.query('COMMIT').run() // read-only: nothing to roll back
  }
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

/** The steps of building a value: each `yield` is a place where requests may have their turn. */
export type Steps<T> = Generator<void, T, void>

/** Rows one at a time, with a place for requests every SLICE_ROWS of them. */
export function* sliced<R>(rows: Iterable<R>, each: (row: R) => void): Steps<void> {
  let n = 0
  for (const row of rows) {
    each(row)
    if (++n % SLICE_ROWS === 0) yield
  }
}
const SLICE_ROWS = 256

/** Builds at once: a request that needs the value now. */
export function allAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
  }
}

/** Something the watcher builds ahead of the requests: true from `step` once it is done. */
export interface Build {
  step(): boolean
  /** given up: ends its statement */
  stop(): void
}

/** Steps run to their end, handing the value on; a Build for the watcher. */
export function buildOf<T>(steps: Steps<T>, done: (value: T) => void): Build {
  return {
    step() {
      const next = steps.next()
      if (next.done) done(next.value)
      return next.done === true
    },
    stop: () => void steps.return(undefined as T),
  }
}

/**
 * What a new commit needs built for a serving connection `db`, read from the
 * watcher's snapshot of it (`at`), or null for nothing: each registered here is
 * asked by the watcher before the serving connection moves to that commit.
 */
type Ahead = (db: Store, at: Store) => Build | null
const aheads: Ahead[] = []
export const buildAhead = (ahead: Ahead): void => void aheads.push(ahead)

/** Values built on a request's path rather than ahead of it by the watcher (tests). */
let builtOnRequest = 0
export const copiesBuiltOnRequest = () => builtOnRequest

/**
 * A value derived from some small tables only, kept while their content is the
 * same. Every commit is a new data version, whether or not a sync rewrote a small
 * table; a sync keeps a digest of each table's rows (meta digest:<table>,
 * sync/run.ts), and the value is built again only when one of those moves. On a
 * serving connection the watcher builds it ahead, in slices (see the top of this
 * file). A store without the digests (fixtures, the demo, keys --demo) builds it
 * once per data version.
 */
export function perContent<T>(tables: SmallTable[], build: (db: Store) => Steps<T>): (db: Store) => T {
  const sql = `${PER_VERSION} SELECT value FROM meta WHERE key IN (${tables.map(() => '?').join(', ')}) ORDER BY key`
  const keys = tables.map(digestKey)
  const read = (db: Store): string | null => {
    const rows = db.$client.query<{ value: string }, string[]>(sql).all(...keys)
    return rows.length === tables.length ? rows.map((r) => r.value).join(' ') : null
  }
  const contentOf = perVersion(read)
  const perVersionValue = perVersion((db) => allAtOnce(build(db)))
  // by content: the serving snapshot's, and the one the watcher built for the next (newest last)
  const byContent = new WeakMap<Store, { content: string; value: T }[]>()
  const kept = (db: Store, content: string, current: boolean): T | undefined => {
    const list = byContent.get(db)
    if (list === undefined) return undefined
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i].content !== content) continue
      const { value } = list[i]
      // a request reads this one: the copies before it are done with (a copy of the directory
      // and catalogue is tens of MB at production size); one built ahead of it stays
      if (current && i > 0) list.splice(0, i)
      return value
    }
    return undefined
  }
  const keep = (db: Store, content: string, value: T) => {
    const list = (byContent.get(db) ?? []).filter((k) => k.content !== content)
    list.push({ content, value })
    byContent.set(db, list.slice(-2))
  }
  buildAhead((db, at) => {
    const content = read(at)
    if (content === null || kept(db, content, false) !== undefined) return null
    return buildOf(build(at), (value) => keep(db, content, value))
  })
  return (db) => {
    const content = contentOf(db)
    if (content === null) return perVersionValue(db)
    const have = kept(db, content, true)
    if (have !== undefined) return have
    builtOnRequest++
    const value = allAtOnce(build(db))
    keep(db, content, value)
    return value
  }
}
