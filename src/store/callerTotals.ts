// Each caller's lifetime total (spec 2.1 total_calls_from_caller), held in
// memory so that a page's rows take theirs without a seek each: a seek into
// callers cost about a microsecond a row, half of a 500-row call log's time.
//
// A base copy of every caller (sorted numbers and totals, typed arrays: 8
// bytes a caller) is read from one snapshot of `callers`; each data version
// then takes in only the callers a sync changed after that snapshot (the log
// caller_changes, by run; one range of its key), which a serving connection's
// watcher reads before its requests move to that version (snapshot.ts). A base
// is read on a
// connection of its own a slice at a time, between requests, so no request
// waits for it (a small store's is read at once); until one is ready, and
// whenever the current one is newer than the snapshot a request reads, or older
// than what the log still holds, a total is one seek, as before. A base is read
// again once the changes taken in on top of it grow past a tenth of it, or once
// the log no longer holds every change since it. Answers are the same whichever
// way a total is found: the base's snapshot plus every later change is the
// snapshot's own.
import type { Database, Statement } from 'bun:sqlite'
import { CALLER_CHANGES_FROM } from './derive/callers'
import { feedState, headIn } from './feedState'
import { fileOf, type Store } from './open'
import { readBeside } from './readBeside'
import { allAtOnce, buildAhead, buildOf, PER_VERSION, perVersion, sliced, type Steps } from './snapshot'

/**
 * Every caller as of one sync run (`seq`, the feed position of the newest run in
 * its snapshot), sorted, each one 32-bit word (the number's offset within its
 * bucket, 16 bits, then its total, 16 bits) in blocks of BLOCK callers: 4 bytes a
 * caller, 17.6 MB at production size's 4.4 million. A total of 65,535 or more is
 * kept in `large` by number, its word saying only LARGE. A bucket is a run of
 * `width` (at most 2^16) consecutive numbers from `min`, and `starts` holds where
 * each bucket's callers begin: a look-up reads one entry of it (about 600 KB over
 * 10-digit numbers) and then lands among a few dozen callers, its total in the
 * same word. Over scale 1's 4.4 million callers a look-up costs about 100 ns,
 * against 205–250 for chunk objects of 1,000 callers found by a binary search over
 * their firsts, and a 500-row call log 835–891 → 1,063–1,086 req/s (issue 12).
 * Half of the 8 bytes a caller of pairs of 32-bit numbers: every byte JavaScript
 * holds counts in the heap size from which JavaScriptCore lets the heap grow
 * (about twice that) before it collects, so the base's bytes weighed on a serving
 * process's peak more than twice over (docs/benchmarks.md).
 */
interface Base {
  seq: number
  size: number
  min: number
  /** the last bucket's number: callers lie in buckets 0..last */
  last: number
  width: number
  /** bucket b's callers are [starts[b], starts[b + 1]) */
  starts: Int32Array
  blocks: Uint32Array[]
  /** totals of LARGE or more, by number */
  large: Map<number, number>
}

/** Callers a block (2^16: 256 KB a block; a bucket's callers may span two). */
const BLOCK_BITS = 16
const BLOCK_MASK = (1 << BLOCK_BITS) - 1
/** A bucket is as narrow as this many buckets allow, and never wider than an offset's 16 bits. */
const MAX_BUCKETS = 2 ** 17
const WIDEST = 2 ** 16
/** A stored number is at most 11 digits (callCodec.ts): 2^35 / WIDEST buckets at most, 2 MB of starts. */
const MOST_BUCKETS = 2 ** 19
/** A word's total that says "see `large`": totals from here on do not fit its 16 bits. */
const LARGE = 0xffff

/**
 * Callers read a slice a step, as many steps a turn of the event loop as fit in
 * readBeside's turn. A slice of 1,000 took 0.2 ms, one of 5,000 1.9 ms (up to 5.8):
 * its sorted text costs more than in proportion.
 */
const SLICE = 1_000

interface State {
  base: Base | null
  /** a base being read */
  reading: boolean
  /** told once a read of a base has ended, with a base or without (callersRead) */
  waiting: (() => void)[]
}
const states = new WeakMap<Store, State>()
const stateOf = (db: Store): State => {
  let s = states.get(db)
  if (!s) states.set(db, (s = { base: null, reading: false, waiting: [] }))
  return s
}

/** A read of a base has ended: with the base, or without one (the store went away under it). */
function readEnded(state: State, base: Base | null): void {
  state.reading = false
  if (base) state.base = base
  for (const resolve of state.waiting.splice(0)) resolve()
}

/**
 * Settles once a base of every caller is in memory, or a read of one ended without it: a
 * serving worker is then as ready as it gets (serve waits for it before it syncs).
 */
export function callersRead(db: Store): Promise<void> {
  const state = stateOf(db)
  return state.base || !state.reading ? Promise.resolve() : new Promise((resolve) => state.waiting.push(resolve))
}

const BY_MOBILE = 'SELECT total FROM callers WHERE mobile = ?'
/** Changed callers taken in on top of a base before it is read again. */
const REREAD_AFTER = 50_000

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
  // none yet, or the log no longer holds every change since it (a full load, or its week passed)
  const logFrom = changesFrom(db)
  if ((!base || base.seq < logFrom) && !state.reading) readBase(db, state) // at once for a store in memory: then ready below
  // a seek per caller until a base of this snapshot or an older one that the log still covers is ready
  if (!state.base || state.base.seq > feedState(db).head || state.base.seq < logFrom) return null
  view.base = state.base
  const ready = view.base
  // built by the serving connection's watcher before it moved to this commit, or now
  const ahead = aheadOf.get(db)
  let changed: Map<number, number>
  if (ahead && ahead.base === ready && ahead.head === feedState(db).head) changed = ahead.changed
  else {
    changesReadOnRequest++
    changed = allAtOnce(changesSince(db, ready.seq, new Map()))
  }
  // the changes are a Map (about 70 bytes a caller): a base is read again before they grow large
  if (changed.size > Math.min(ready.size / 10, REREAD_AFTER) && !state.reading) readBase(db, state)
  return (view.lookup = { base: ready, changed })
}

/** The callers changed after a run: one range of the log's key, in run order (a later run's total is the newer). */
export const CHANGED_SINCE_SQL = `${PER_VERSION} SELECT mobile, total FROM caller_changes WHERE seq > ? ORDER BY seq`

/** The run after which the log holds every change (derive/callers.ts); 0 in a store that never had a full load. */
const changesFrom = (db: Store): number =>
  Number(db.$client.query<{ value: string }, [string]>(`${PER_VERSION} SELECT value FROM meta WHERE key = ?`).get(CALLER_CHANGES_FROM)?.value ?? 0)

/** The callers changed after run `seq`, set into `changed` (theirs as of an earlier run, or none), a slice of rows at a time. */
function* changesSince(db: Store, seq: number, changed: Map<number, number>): Steps<Map<number, number>> {
  const rows = db.$client.query<{ mobile: number; total: number }, [number]>(CHANGED_SINCE_SQL).iterate(seq)
  yield* sliced(rows, (r) => changed.set(r.mobile, r.total))
  return changed
}

/**
 * A serving connection's changes since its base as of a newer run (`head`), built
 * by its watcher from that run's snapshot before the connection moves to it
 * (snapshot.ts): a day's 50,000 new calls change tens of thousands of callers,
 * which the first request after a sync would otherwise read. Each run's are a
 * copy of the previous run's with only its own changed callers read on top (a
 * Map of 47,000 copies in 1.5 ms), so the reads do not grow from run to run
 * until the base is read again.
 */
const aheadOf = new WeakMap<Store, { base: Base; head: number; changed: Map<number, number> }>()
/** Changes read on a request's path rather than ahead of it (tests). */
let changesReadOnRequest = 0
export const callerChangesReadOnRequest = () => changesReadOnRequest
buildAhead((db, at) => {
  const base = states.get(db)?.base
  if (!base) return null
  const head = feedState(at).head
  const have = aheadOf.get(db)
  if (head <= base.seq || (have?.base === base && have.head === head)) return null
  // the log no longer holds every change since the base (a full load over a loaded store empties
  // it): its requests seek while every caller is read again
  if (changesFrom(at) > base.seq) return null
  // on top of the previous run's changes when they are of the same base: only this run's callers
  // are read (the log holds every run after the base, so every run after them)
  const from = have?.base === base && have.head < head ? have : null
  return buildOf(changesSince(at, from?.head ?? base.seq, new Map(from?.changed)), (changed) => aheadOf.set(db, { base, head, changed }))
})

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
  const { changed, base: { min, last, width, starts, blocks, large } } = lookup
  // the caller at place i: its word, its offset within its bucket in the high half, its total in the low
  const wordAt = (i: number) => blocks[i >>> BLOCK_BITS][i & BLOCK_MASK]
  const offsetAt = (i: number) => wordAt(i) >>> 16
  const totalAt = (i: number, mobile: number) => {
    const total = wordAt(i) & LARGE
    return total === LARGE ? large.get(mobile)! : total
  }
  return (mobile) => {
    const total = changed.get(mobile)
    if (total !== undefined) return total
    const bucket = Math.floor((mobile - min) / width)
    if (!(bucket >= 0 && bucket <= last)) return 0
    const offset = mobile - min - bucket * width
    let lo = starts[bucket]
    let hi = starts[bucket + 1] - 1
    if (lo > hi) return 0
    // a guess from where the number lies in its bucket, a few steps from it (a cache line or
    // two on evenly spread numbers), then halving what is left of a crowded bucket
    let i = Math.min(hi, lo + Math.floor((offset / width) * (hi - lo + 1)))
    for (let step = 0; step < 8 && lo <= hi; step++) {
      const k = offsetAt(i)
      if (k === offset) return totalAt(i, mobile)
      if (k < offset) lo = ++i
      else hi = --i
    }
    while (lo <= hi) {
      i = (lo + hi) >>> 1
      const k = offsetAt(i)
      if (k === offset) return totalAt(i, mobile)
      if (k < offset) lo = i + 1
      else hi = i - 1
    }
    return 0
  }
}

// A slice as one text ("mobile,total,mobile,total…"): one string a slice
// instead of an array a caller, which left about 200 MB of garbage behind a
// production-size base (4.4 million callers) before the collector caught up.
const SLICE_SQL = `SELECT group_concat(mobile || ',' || total, ',' ORDER BY mobile) AS text, count(*) AS n, max(mobile) AS last
  FROM (SELECT mobile, total FROM callers WHERE mobile > ? ORDER BY mobile LIMIT ${SLICE})`
interface Slice {
  text: string | null
  n: number
  last: number
}

/** Reads a base: at once on the store's own connection when it is in memory, else in slices on a connection of its own. */
function readBase(db: Store, state: State): void {
  const client = db.$client
  const path = fileOf(client)
  // no other connection sees a store in memory: read in the request's own snapshot, so the base is of this version
  if (path === null) return readEnded(state, allAtOnce(baseSteps(client)))
  state.reading = true
  // the file went away, or the store closed or changed under the reader: seeks go on, and a later version tries again
  readBeside(path, baseSteps, (base) => readEnded(state, base))
}

/** A base read a slice a step, in the snapshot of `client`: the base's run, the callers' bounds and every slice are of it. */
function* baseSteps(client: Database): Steps<Base> {
  const seq = headIn(client)
  const into = new Collector(client.query<Bounds, []>(`${PER_VERSION} ${BOUNDS_SQL}`).get()!)
  const slice = client.query<Slice, [number]>(`${PER_VERSION} ${SLICE_SQL}`)
  while (into.take(slice)) yield
  return into.base(seq)
}

/** The smallest and largest caller number: two seeks, before the slices (the buckets span them). */
const BOUNDS_SQL = 'SELECT (SELECT min(mobile) FROM callers) AS min, (SELECT max(mobile) FROM callers) AS max'
type Bounds = { min: number | null; max: number | null }

/** Callers gathered into a base a slice at a time, with no array a caller. */
class Collector {
  private readonly min: number
  private readonly last: number
  private readonly width: number
  private readonly starts: Int32Array
  private readonly blocks: Uint32Array[] = []
  private readonly large = new Map<number, number>()
  private size = 0
  /** the next bucket whose start is not yet known */
  private bucket = 0
  // one slice's callers, parsed: reused from slice to slice
  private keys = new Float64Array(SLICE)
  private totals = new Int32Array(SLICE)

  /** the last number taken */
  private after = -1

  constructor({ min, max }: Bounds) {
    this.min = min ?? 0
    // buckets of a power of two wide, as narrow as MAX_BUCKETS allow, and at most WIDEST, so an
    // offset fits its 16 bits
    let shift = 0
    while (max !== null && (max - this.min) / 2 ** shift >= MAX_BUCKETS && 2 ** shift < WIDEST) shift++
    this.width = 2 ** shift
    this.last = max === null ? -1 : Math.floor((max - this.min) / this.width)
    // never so with the numbers callCodec.ts stores; the read fails, and totals are seeks
    if (this.last + 2 > MOST_BUCKETS) throw new Error('caller numbers beyond 11 digits')
    this.starts = new Int32Array(this.last + 2)
  }

  /** Takes the next slice of callers; true while more may follow. */
  take(query: Statement<Slice, [number]>): boolean {
    const slice = query.get(this.after)!
    if (slice.n === 0) return false
    this.add(slice)
    this.after = slice.last
    return slice.n === SLICE
  }

  /** A slice's text: decimal integers, a comma between each, mobile then total. */
  private add(slice: Slice): void {
    const { keys, totals, min, width, starts, blocks, large } = this
    const text = slice.text!
    let n = 0
    let value = 0
    let isTotal = false
    for (let i = 0; i <= text.length; i++) {
      const c = i < text.length ? text.charCodeAt(i) : 44
      if (c !== 44) {
        value = value * 10 + (c - 48)
        continue
      }
      if (isTotal) totals[n++] = value
      else keys[n] = value
      isTotal = !isTotal
      value = 0
    }
    for (let j = 0; j < n; j++) {
      const place = this.size++
      const bucket = Math.floor((keys[j] - min) / width)
      // a caller past the bounds read first (the table changed under a reader that is not a snapshot) fails the read
      if (!(bucket >= this.bucket - 1 && bucket <= this.last)) throw new Error('callers out of order')
      while (this.bucket <= bucket) starts[this.bucket++] = place
      if ((place & BLOCK_MASK) === 0) blocks.push(new Uint32Array(1 << BLOCK_BITS))
      const total = totals[j]
      if (total >= LARGE) large.set(keys[j], total)
      blocks[place >>> BLOCK_BITS][place & BLOCK_MASK] = (keys[j] - min - bucket * width) * 0x1_0000 + Math.min(total, LARGE)
    }
  }

  base(seq: number): Base {
    while (this.bucket < this.starts.length) this.starts[this.bucket++] = this.size
    return { seq, size: this.size, min: this.min, last: this.last, width: this.width, starts: this.starts, blocks: this.blocks, large: this.large }
  }
}
