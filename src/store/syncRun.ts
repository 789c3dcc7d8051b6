// A sync run's side in the read store: one IMMEDIATE transaction on the sync's
// own connection holds its rows, the derived tables, the watermarks and its
// record, then one COMMIT. Readers (WAL, other connections) see the previous
// state until that commit, and nothing of a run that dies, which SQLite rolls
// back. The run hands store-shaped rows (rows.ts) to a FullLoad or to Changes.
import type { Database } from 'bun:sqlite'
import { BUSY_TIMEOUT_MS, fileOf } from './open'
import { Changes, type Rederive } from './changes'
import { storeFaces, type StoreFaces } from './derive/stores'
import { openFeedSeq } from './feed'
import { setDataAsOf } from './freshness'
import { FullLoad } from './fullLoad'
import { storeMeta, writeMeta } from './meta'
import type { Store } from './open'
import type { SmallTable } from './rows'
import { rewriteTable, updateTable, type TableWrite } from './smallTables'
import { failRunRecord, finishRunRecord, startRunRecord } from './syncRuns'

/** How long a run's checkpoint waits for readers to move past it (a serving worker building a run's copies takes up to a few hundred ms). */
const CHECKPOINT_WAIT_MS = 3_000

/**
 * A first load with the store to itself writes the store file directly, under a rollback
 * journal, instead of through the WAL: through the WAL, the whole load (7 GB at production
 * size) was written to the WAL and then copied into the file by the commit's checkpoint
 * (29.5 s of a 321 s load). Only when no other connection has the file open: SQLite cannot
 * leave WAL mode then, and a serving worker keeps reading the previous state as before.
 * Atomic all the same: a run that dies leaves a hot journal, which the next connection
 * to open the store rolls back. True when the store left WAL mode.
 */
function leaveWal(client: Database): boolean {
  if (fileOf(client) === null) return false
  // another connection on the file: keep the WAL at once, never wait for it
  return withBusyTimeout(client, 0, () => {
    try {
      const { journal_mode: mode } = client.query('PRAGMA journal_mode = DELETE').get() as { journal_mode: string }
      if (mode !== 'delete') return false
      // the journal is the run's only safeguard now: synced before the file is written
      client.run('PRAGMA synchronous = FULL')
      return true
    } catch {
      return false // busy: another connection holds the store
    }
  })
}

/** `run` with the connection's busy timeout at `ms`, then back at the store's own. */
function withBusyTimeout<T>(client: Database, ms: number, run: () => T): T {
  client.run(`PRAGMA busy_timeout = ${ms}`)
  try {
    return run()
  } finally {
    client.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  }
}

/** Back to WAL after a first load, so readers never wait for a writer again; if a reader holds the file now, the next openStore sets it. */
function backToWal(client: Database): void {
  try {
    client.run('PRAGMA journal_mode = WAL')
  } catch {
    return // busy: the journal stays the safeguard (synchronous stays FULL); every openStore sets WAL again
  }
  client.run('PRAGMA synchronous = NORMAL')
}

export class SyncRun {
  private readonly client: Database
  private readonly record: number
  /** each store's visibility and face when the run began: stores that turn move the minute totals, stores that change face move their calls in the feed */
  private readonly facesBefore: StoreFaces
  /** the run's feed position, opened with its snapshot */
  private feedSeq: number | undefined
  /** told each step of the store's work as it ends (timings, progress lines) */
  onStep: (step: string) => void = () => {}
  /** the run writes the store file directly (a first load with the store to itself, leaveWal) */
  private readonly direct: boolean

  /** `firstLoad`: the run will load the large tables from nothing (no watermark yet) */
  constructor(db: Store, { firstLoad = false }: { firstLoad?: boolean } = {}) {
    this.client = db.$client
    this.record = startRunRecord(this.client)
    // sorts and window functions over millions of rows spill to temporary files, not memory;
    // bounded memory whatever the table sizes: a 32 MiB page cache, a second sorter thread
    this.client.run('PRAGMA temp_store = FILE')
    this.client.run('PRAGMA cache_size = -32768')
    this.client.run('PRAGMA threads = 2')
    this.direct = firstLoad && leaveWal(this.client)
    this.client.run('BEGIN IMMEDIATE')
    this.facesBefore = storeFaces(this.client)
  }

  /** What sync keeps between runs (its watermarks, its verification windows). */
  meta(key: string): string | null {
    return storeMeta(this.client, key)
  }

  /** The master's clock at the run's snapshot: data_as_of of what it commits (freshness.ts), and its feed position (feed.ts). */
  snapshotAt(masterNow: string): void {
    setDataAsOf(this.client, masterNow)
    this.feedSeq = openFeedSeq(this.client, masterNow)
  }

  private get seq(): number {
    if (this.feedSeq === undefined) throw new Error('snapshotAt() comes before the run writes calls')
    return this.feedSeq
  }

  setMeta(key: string, value: string): void {
    writeMeta(this.client, key, value)
  }

  /** A small table to bring to the master's rows, read whole (hard deletes must vanish): written afresh by a full load, else only where it differs. */
  smallTable(table: SmallTable, full: boolean): TableWrite {
    return full ? rewriteTable(this.client, table) : updateTable(this.client, table)
  }

  /** The large tables loaded from nothing: after the small tables, before the large ones. */
  fullLoad(): FullLoad {
    // a full load is sorts and appends: a small cache keeps each sorter's memory small too
    // (measured: 8 MiB with two threads was faster than 32 MiB with one, at less memory)
    this.client.run('PRAGMA cache_size = -8192')
    return new FullLoad(this.client, this.seq, (step) => this.onStep(step))
  }

  /** The large tables' changed rows, and the derived rows they touch; `rederive`: the small tables' derivations to run again (their tables were written again). */
  changes(rederive: Rederive): Changes {
    return new Changes(this.client, this.facesBefore, this.seq, rederive, (step) => this.onStep(step))
  }

  /** Rows of the two large tables, to compare with the master's. */
  rowCounts(): { calls: number; metrics: number } {
    return this.client.query('SELECT (SELECT count(*) FROM calls) AS calls, (SELECT count(*) FROM metrics) AS metrics').get() as { calls: number; metrics: number }
  }

  /** Records the run as good and commits all of it at once. */
  commit(stats: object): void {
    finishRunRecord(this.client, this.record, stats)
    this.client.run('COMMIT')
    if (this.direct) backToWal(this.client)
  }

  /**
   * After the commit: the WAL copied back into the store file and emptied, once
   * every reader has moved past this run. A serving worker holds its snapshot
   * from request to request (snapshot.ts), so under steady requests SQLite never
   * finds the WAL free to start over, and it grew by each run's writes (8 MB a
   * commit, 158 MB after twenty, against 8 MB with a snapshot a turn). A worker
   * moves within a poll of the commit, or once it has built the run's copies;
   * past CHECKPOINT_WAIT_MS the WAL stays as it is until the next run.
   */
  checkpoint(): void {
    withBusyTimeout(this.client, CHECKPOINT_WAIT_MS, () => {
      try {
        this.client.query('PRAGMA wal_checkpoint(TRUNCATE)').get()
      } catch {
        // busy or not in WAL (a store in memory): the next run tries again
      }
    })
  }

  /** Undoes the run's writes and records why it failed. */
  fail(error: string, stats: object): void {
    if (this.client.inTransaction) this.client.run('ROLLBACK')
    if (this.direct) backToWal(this.client)
    failRunRecord(this.client, this.record, error, stats)
  }
}
