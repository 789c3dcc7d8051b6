// call_minutes held in memory, so that call history across stores finds its
// totals and where its page starts without a statement: its two counts and its
// probes into the running totals (2 to 6 of them) took 18–23 µs of a 130 µs
// page in process, a statement each.
//
// A copy holds each row of call_minutes (a minute with calls of visible
// stores): its minute after the first row's (4 bytes: 8,166 years) and its three
// counts (a byte each, 255 saying "see `large`"), with the running totals before
// every BLOCK rows: 7 bytes a row, taken a chunk of 65,536 rows at a time, 7.6 MB
// at scale 1's 1,030,000 minutes. Rows rather than every minute between the first
// and the last, so that a call dated decades off costs one row, not the minutes
// between; calls further apart than 32 bits of minutes (DATETIME spans 9,000
// years) leave the table to be read. A copy is read for one sync run (the feed's
// head, feedState.ts): every write to call_minutes is a run's. A file store's
// is read on a connection of its own, a slice of rows a turn of the event loop,
// so no request waits for it; until it is ready, and whenever it is not of the
// run a request's snapshot holds, a request reads call_minutes as before
// (calls.ts). A store in memory (tests) reads its copy at once, per data version.
import type { Database, Statement } from 'bun:sqlite'
import { countOf, type CallClass, type Counts } from './callClasses'
import { feedState, headIn } from './feedState'
import { fileOf, type Store } from './open'
import { readBeside } from './readBeside'
import { allAtOnce, perVersion, PER_VERSION, type Steps } from './snapshot'

/** Rows a block: a running total is kept before each, and at most BLOCK - 1 counts are summed after it. */
const BLOCK = 64
/** A count of this or more is kept in `large`. */
const LARGE = 255
/** Rows read a slice: about 1 ms at scale 1. */
const SLICE = 4096
/**
 * Rows a chunk of the copy's arrays (2^16: 256 KB of minutes, 192 KB of counts). The arrays
 * are taken a chunk at a time as rows come, rather than sized by a count of the table
 * first (one scan of call_minutes in one step of the read: 15–24 ms at scale 1, where
 * readBeside gives a turn 1 ms) or doubled (each doubling a step of 4–7 ms).
 */
const CHUNK_BITS = 16
const CHUNK = 1 << CHUNK_BITS
const CHUNK_MASK = CHUNK - 1

/** call_minutes of one run, in memory: the totals call history across stores reads. */
export interface MinuteTotals {
  /** the run whose snapshot it was read in */
  readonly head: number
  /** calls through a minute (inclusive), by substatus; no seconds (call_minutes holds none) */
  through(minute: number): Counts
  /**
   * The first minute in [from, to] through which the class's calls pass `target` (at
   * least the class's calls before `from`), and the class's calls before that minute;
   * null when none does.
   */
  passing(from: number, to: number, target: number, cls: CallClass): { minute: number; skipped: number } | null
}

/** Weights of answered, missed and offline that pick out one of them. */
const UNITS = [[1, 0, 0], [0, 1, 0], [0, 0, 1]] as const
/** Each class's weights (0 or 1), from its one declaration (callClasses.ts). */
const classWeights = new Map<CallClass, readonly number[]>()
function weightsOf(cls: CallClass): readonly number[] {
  let w = classWeights.get(cls)
  if (w === undefined) {
    const one = UNITS.map(([answered, missed, offline]) => countOf({ answered, missed, offline, secAnswered: 0, secMissed: 0, secOffline: 0 }, cls))
    classWeights.set(cls, (w = one))
  }
  return w
}

class Copy implements MinuteTotals {
  constructor(
    readonly head: number,
    private readonly size: number,
    /** the first row's minute */
    private readonly origin: number,
    /** each row's minute after the origin's, by chunk */
    private readonly minutes: readonly Uint32Array[],
    /** three a row (answered, missed, offline), by chunk */
    private readonly counts: readonly Uint8Array[],
    /** counts of LARGE or more, by row * 3 + substatus */
    private readonly large: Map<number, number>,
    /** three a block: the running totals before its first row */
    private readonly before: Float64Array,
  ) {}

  private minuteAt(row: number): number {
    return this.minutes[row >>> CHUNK_BITS][row & CHUNK_MASK]
  }

  /** A row's count of one substatus (0 answered, 1 missed, 2 offline). */
  private count(row: number, k: number): number {
    const n = this.counts[row >>> CHUNK_BITS][(row & CHUNK_MASK) * 3 + k]
    return n === LARGE ? this.large.get(row * 3 + k)! : n
  }

  /** How many rows have a minute at most `minute`. */
  private rowsThrough(minute: number): number {
    const after = minute - this.origin
    let lo = 0
    let hi = this.size
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.minuteAt(mid) <= after) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** The running total before a block, of the substatuses weighted by w. */
  private blockBefore(block: number, w: readonly number[]): number {
    return w[0] * this.before[block * 3] + w[1] * this.before[block * 3 + 1] + w[2] * this.before[block * 3 + 2]
  }

  /** A row's calls of the substatuses weighted by w. */
  private rowCount(row: number, w: readonly number[]): number {
    return w[0] * this.count(row, 0) + w[1] * this.count(row, 1) + w[2] * this.count(row, 2)
  }

  /** The calls of the substatuses weighted by w in the rows before `row`. */
  private totalBefore(row: number, w: readonly number[]): number {
    const block = Math.floor(row / BLOCK)
    let n = this.blockBefore(block, w)
    for (let i = block * BLOCK; i < row; i++) n += this.rowCount(i, w)
    return n
  }

  through(minute: number): Counts {
    const row = this.rowsThrough(minute)
    const [answered, missed, offline] = [0, 1, 2].map((k) => this.totalBefore(row, UNITS[k]))
    return { answered, missed, offline, secAnswered: 0, secMissed: 0, secOffline: 0 }
  }

  passing(from: number, to: number, target: number, cls: CallClass): { minute: number; skipped: number } | null {
    const w = weightsOf(cls)
    const first = this.rowsThrough(from - 1) // the first row of `from` or after
    const end = this.rowsThrough(to) // just past the last row of `to` or before
    if (first >= end) return null
    // the row sought lies in the last block (from first's on) whose running total before it does not pass the target
    let lo = Math.floor(first / BLOCK)
    let hi = Math.floor((end - 1) / BLOCK)
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (this.blockBefore(mid, w) <= target) lo = mid
      else hi = mid - 1
    }
    let row = Math.max(first, lo * BLOCK)
    let total = this.totalBefore(row, w)
    if (total > target) return null // the calls before `from` pass it already
    // within that block: the next one's running total passes the target, or it is the range's last
    const stop = Math.min(end, (lo + 1) * BLOCK)
    for (; row < stop; row++) {
      const n = this.rowCount(row, w)
      if (total + n > target) return { minute: this.origin + this.minuteAt(row), skipped: total }
      total += n
    }
    return null
  }
}

type Row = [minute: number, answered: number, missed: number, offline: number]
const SLICE_SQL = `${PER_VERSION} SELECT minute, answered, missed, offline FROM call_minutes WHERE minute > ? ORDER BY minute LIMIT ${SLICE}`

/** A copy read a slice at a time: `take` until it says every row is in, then `copy`. */
class Reader {
  private readonly minutes: Uint32Array[] = []
  private origin = 0
  private readonly counts: Uint8Array[] = []
  /** small (3 numbers a block of 64 rows): doubled when full */
  private before = new Float64Array((CHUNK / BLOCK) * 3)
  private readonly large = new Map<number, number>()
  private readonly running = [0, 0, 0]
  private size = 0
  private after = Number.MIN_SAFE_INTEGER

  constructor(readonly head: number) {}

  /** The running totals so far, as those before a block. */
  private setBefore(block: number): void {
    if ((block + 1) * 3 > this.before.length) {
      const before = new Float64Array(this.before.length * 2)
      before.set(this.before)
      this.before = before
    }
    this.before.set(this.running, block * 3)
  }

  /** Takes the next slice of rows; true once every row is in. */
  take(slice: Statement<Row, [number]>): boolean {
    const rows = slice.values(this.after) as Row[]
    for (const row of rows) {
      const i = this.size++
      const at = i & CHUNK_MASK
      if (at === 0) {
        this.minutes.push(new Uint32Array(CHUNK))
        this.counts.push(new Uint8Array(CHUNK * 3))
      }
      if (i % BLOCK === 0) this.setBefore(i / BLOCK)
      if (i === 0) this.origin = row[0]
      // rows further apart than 32 bits of minutes: the read fails, and requests read the table
      if (row[0] - this.origin > 0xffff_ffff) throw new Error('call_minutes spans more than 32 bits of minutes')
      // the row's chunk is the last one taken
      this.minutes[this.minutes.length - 1][at] = row[0] - this.origin
      const counts = this.counts[this.counts.length - 1]
      for (let k = 0; k < 3; k++) {
        const n = row[k + 1]
        counts[at * 3 + k] = Math.min(n, LARGE)
        if (n >= LARGE) this.large.set(i * 3 + k, n)
        this.running[k] += n
      }
      this.after = row[0]
    }
    return rows.length < SLICE
  }

  copy(): Copy {
    // a total through the last row reads the block after it when that row ends a block
    if (this.size % BLOCK === 0) this.setBefore(this.size / BLOCK)
    return new Copy(this.head, this.size, this.origin, this.minutes, this.counts, this.large, this.before)
  }
}

/** A copy read a slice a step, in the snapshot of `client`; `ofRun` is told the copy's run first. */
function* copySteps(client: Database, ofRun?: (head: number) => void): Steps<Copy> {
  const head = headIn(client)
  ofRun?.(head)
  const reader = new Reader(head)
  const slice = client.query<Row, [number]>(SLICE_SQL)
  while (!reader.take(slice)) yield
  return reader.copy()
}

/** A store in memory: its copy read at once in the request's snapshot, once per data version (null: the table is read). */
const inMemory = perVersion((db: Store): Copy | null => {
  try {
    return allAtOnce(copySteps(db.$client))
  } catch {
    return null // minutes too far apart
  }
})

interface State {
  copy: Copy | null
  reading: boolean
  /** told once a read has ended, with a copy or without (minutesRead) */
  waiting: (() => void)[]
  /** the newest run a read was begun for: a read that failed is not begun again for it */
  tried: number
}
const states = new WeakMap<Store, State>()
const stateOf = (db: Store): State => {
  let s = states.get(db)
  if (!s) states.set(db, (s = { copy: null, reading: false, waiting: [], tried: -1 }))
  return s
}

/** Settles once a read begun (minuteTotals, warmUp) has ended, with a copy or without. */
export function minutesRead(db: Store): Promise<void> {
  const state = stateOf(db)
  return state.reading ? new Promise((resolve) => state.waiting.push(resolve)) : Promise.resolve()
}

/**
 * The copy of call_minutes that the current snapshot holds, or null while none is ready
 * (the caller reads the table). A read of a newer run's copy is begun here.
 */
export function minuteTotals(db: Store): MinuteTotals | null {
  const path = fileOf(db.$client)
  const ready = readyCopy(db, path)
  if (ready !== null || path === null) return ready
  const state = stateOf(db)
  const head = feedState(db).head
  if (!state.reading && head > state.tried) read(path, head, state)
  return null
}

/** Whether requests of the current snapshot find their totals in a copy (for /metrics): no read is begun. */
export const minutesInMemory = (db: Store): boolean => readyCopy(db, fileOf(db.$client)) !== null

/** The copy of the current snapshot's run, when one is ready: a store in memory's own, or a file store's last read. */
function readyCopy(db: Store, path: string | null): Copy | null {
  if (path === null) return inMemory(db)
  const { copy } = stateOf(db)
  return copy !== null && copy.head === feedState(db).head ? copy : null
}

/** Reads a copy beside the requests (readBeside.ts): until it ends, they read the table. */
function read(path: string, head: number, state: State): void {
  state.tried = head
  state.reading = true
  // its snapshot may hold a newer run than the request's: that run's requests need no other read
  const steps = (client: Database) => copySteps(client, (run) => (state.tried = Math.max(state.tried, run)))
  readBeside(path, steps, (copy) => {
    state.reading = false
    if (copy !== null) state.copy = copy
    for (const resolve of state.waiting.splice(0)) resolve()
  })
}
