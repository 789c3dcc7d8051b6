// Each caller's lifetime total (spec 2.1 total_calls_from_caller), held in
// memory so that a page's rows take theirs without a seek each: a seek into
// callers cost about a microsecond a row, half of a 500-row call log's time.
//
// A base copy of every caller (sorted numbers and totals, typed arrays: 12
// bytes a caller) is read from one snapshot of `callers`; each data version
// then takes in only the callers a sync changed after that snapshot (callers.seq
// is the run that last changed a total; one index range). A base is read on a
// connection of its own a slice at a time, between requests, so no request
// waits for it (a small store's is read at once); until one is ready, and
// whenever the current one is newer than the snapshot a request reads, a total
// is one seek, as before. A base is read again once the changes taken in on
// top of it grow past a tenth of it. Answers are the same whichever way a total
// is found: the base's snapshot plus every later change is the snapshot's own.
import { Database } from 'bun:sqlite'
import { feedState } from './feedState'
import type { Store } from './open'
import { PER_VERSION, perVersion } from './snapshot'

/** Every caller as of one sync run (`seq`, the feed position of the newest run in its snapshot). */
interface Base {
  seq: number
  keys: Float64Array
  totals: Int32Array
}

/** Callers read a slice at a time, one slice a turn of the event loop (about 3 ms). */
const SLICE = 20_000

interface State {
  base: Base | null
  /** a base being read */
  reading: boolean
}
const states = new WeakMap<Store, State>()
const stateOf = (db: Store): State => {
  let s = states.get(db)
  if (!s) states.set(db, (s = { base: null, reading: false }))
  return s
}

const BY_MOBILE = 'SELECT total FROM callers WHERE mobile = ?'

/** How a data version finds totals: the base and what changed since, or null for a seek a caller. */
type Lookup = { base: Base; changed: Map<number, number> } | null

/** A data version's lookup, and the base it was made for (a base can become ready within a version). */
const viewOf = perVersion((): { base: Base | null; made: boolean; lookup: Lookup } => ({ base: null, made: false, lookup: null }))

function lookupOf(db: Store): Lookup {
  const state = stateOf(db)
  const view = viewOf(db)
  const base = state.base
  if (view.made && view.base === base) return view.lookup
  view.made = true
  view.base = base
  view.lookup = null
  if (!base && !state.reading) readBase(db, state) // at once for a store in memory: then ready below
  if (!state.base || state.base.seq > feedState(db).head) return null // a seek per caller until a base of this snapshot or an older one is ready
  view.base = state.base
  const ready = view.base
  const changed = new Map<number, number>()
  for (const [mobile, total] of db.$client.query(`${PER_VERSION} SELECT mobile, total FROM callers INDEXED BY callers_seq WHERE seq > ?`).values(ready.seq) as [number, number][]) {
    changed.set(mobile, total)
  }
  if (changed.size > ready.keys.length / 10 && !state.reading) readBase(db, state)
  return (view.lookup = { base: ready, changed })
}

/** Whether the current snapshot's totals are read from memory (tests, and whoever wants to know). */
export const callerTotalsInMemory = (db: Store): boolean => lookupOf(db) !== null

/**
 * A caller's lifetime calls by the caller's stored mobile (callCodec.ts), 0 for a caller
 * with none: the lookup of the current snapshot, taken once for a page's rows.
 */
export function callerTotals(db: Store): (mobile: number) => number {
  const lookup = lookupOf(db)
  if (lookup === null) {
    const seek = db.$client.query<{ total: number }, [number]>(BY_MOBILE)
    return (mobile) => seek.get(mobile)?.total ?? 0
  }
  const { changed, base: { keys, totals } } = lookup
  const last = keys.length - 1
  return (mobile) => {
    const total = changed.get(mobile)
    if (total !== undefined) return total
    let lo = 0
    let hi = last
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const k = keys[mid]
      if (k < mobile) lo = mid + 1
      else if (k > mobile) hi = mid - 1
      else return totals[mid]
    }
    return 0
  }
}

/** Reads a base: at once on the store's own connection when it is in memory, else in slices on a connection of its own. */
function readBase(db: Store, state: State): void {
  const client = db.$client
  const path = client.filename
  if (!path || path === ':memory:') {
    // no other connection sees it: read in the request's own snapshot, so the base is of this version
    state.base = collect(client.query(`${PER_VERSION} SELECT mobile, total FROM callers ORDER BY mobile`).values() as [number, number][], feedState(db).head)
    return
  }
  let reader: Database
  try {
    reader = new Database(path)
    reader.run('PRAGMA query_only = 1')
    reader.run('BEGIN')
  } catch {
    return // the file went away: seeks it is
  }
  state.reading = true
  const seq = reader.query<{ seq: number | null }, []>('SELECT max(seq) AS seq FROM feed_syncs').get()?.seq ?? 0
  const slice = reader.query<[number, number], [number]>(`SELECT mobile, total FROM callers WHERE mobile > ? ORDER BY mobile LIMIT ${SLICE}`)
  const rows: [number, number][] = []
  let after = -1
  const step = () => {
    try {
      const got = slice.values(after) as [number, number][]
      for (const r of got) rows.push(r)
      if (got.length === SLICE) {
        after = got[got.length - 1][0]
        setImmediate(step) // requests go on in between
        return
      }
      state.base = collect(rows, seq)
    } catch {
      // the store closed or changed under the reader: seeks go on, and a later version tries again
    }
    state.reading = false
    try {
      reader.close()
    } catch {
      // closed already
    }
  }
  setImmediate(step)
}

function collect(rows: [number, number][], seq: number): Base {
  const keys = new Float64Array(rows.length)
  const totals = new Int32Array(rows.length)
  for (let i = 0; i < rows.length; i++) {
    keys[i] = rows[i][0]
    totals[i] = rows[i][1]
  }
  return { seq, keys, totals }
}
