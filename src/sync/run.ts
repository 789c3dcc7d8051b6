// One sync run: master (one REPEATABLE READ snapshot) → read store (one
// SQLite transaction on the sync's own connection, store/syncRun.ts). Small
// tables are compared whole by their fingerprints at the master, and one that
// moved is read whole and its rows that differ written, so hard deletes and
// flags propagate; call_logs and listing_daily_metrics are read from their
// updated_at watermark less a look-back window (writers commit up to 300 s
// late). After the data, a verification pass compares the two and repairs what
// differs (verify.ts).
import { createHash } from 'node:crypto'
import type { Store } from '../store/open'
import { digestKey, fingerprintKey } from '../store/smallTables'
import { SMALL_TABLES, type SmallRow, type SmallTable } from '../store/rows'
import { newestMigrationMillis } from '../store/migrations'
import { PRODUCTS_DERIVATION } from '../store/derive/products'
import { STORES_DERIVATION } from '../store/derive/stores'
import { storeMeta } from '../store/meta'
import { SyncRun } from '../store/syncRun'
import { beginSnapshot, connectMaster, dropConnection, failOnStall, masterNow, queryRows, restartStallClock, streamRows, type Master } from './master'
import { fingerprintsSql, LARGE_MASTER_TABLES, selectFrom, SMALL_MASTER_TABLES, type LargeRow, type LargeTable } from './masterTables'
import type { Progress } from './progress'
import { countAhead, NEWEST_CALL, verify, VERIFY_WINDOW, type CountsAhead, type Verification } from './verify'

/** Re-read this far behind the newest updated_at already seen (master-contract §3). */
export const LOOK_BACK_SECONDS = 300

interface TableStats {
  read: number
  written: number
  /** a small table the master holds as the store does (its fingerprint): neither read nor written */
  unchanged?: true
}

interface SyncResult {
  full: boolean
  /** by master table */
  tables: Record<string, TableStats>
  repaired: number
  /** an incremental run's verification (verify.ts) */
  verification?: Omit<Verification, 'repaired'>
  ms: number
  /** milliseconds spent in each phase and each step of the store's work, for operators and benchmarks */
  phases: Record<string, number>
}

interface SyncOptions {
  /** test hook: called at named points of the run (a test can kill the process there) */
  onPhase?: (phase: string) => void
  verifyWindow?: number
  /** aborting ends the run: the master connection is closed and the run rolls back */
  signal?: AbortSignal
  /** test hook: awaited before verification's counts are asked ahead (a test commits a row there) */
  beforeCountsAhead?: () => Promise<void>
  /** a master silent this long while the run waits for it fails the run (default 20 s); counts asked ahead are waited for this long */
  stallMs?: number
  /** told the phase and rows done of the total, for progress lines */
  progress?: Progress
}

const watermarkKey = (table: LargeTable) => `watermark:${table}`

/** Runs one sync into the read store `db`, through a connection of its own (not one that serves). */
export async function runSync(db: Store, mysqlUrl: string, options: SyncOptions = {}): Promise<SyncResult> {
  const started = performance.now()
  const phases: Record<string, number> = {}
  let master: Master | undefined
  // a phase of the run, and a step of the store's work within one: each timed from the last of its kind
  let lastPhase = started
  let lastStep = started
  let committed = false
  const mark = (name: string, isStep: boolean) => {
    options.onPhase?.(name)
    if (master) restartStallClock(master) // the run's own work up to here does not count as the master's silence
    // a stop asked for during the run's own (synchronous) work takes effect at the next mark, before
    // the commit; once committed, the run is done and stays recorded as good
    if (name === 'committed') committed = true
    if (options.signal?.aborted && !committed) throw new Error('sync stopped')
    if (name.startsWith('batch:')) return
    const t = performance.now()
    phases[name] = Math.round(t - (isStep ? lastStep : lastPhase))
    lastStep = t
    if (!isStep) lastPhase = t
  }
  const phase = (name: string) => mark(name, false)
  const progress = options.progress
  // a first load with the store to itself writes the file directly, not through the WAL (syncRun.ts)
  const run = new SyncRun(db, { firstLoad: storeMeta(db.$client, watermarkKey('call_logs')) === null })
  run.onStep = (step) => {
    mark(step, true)
    progress?.phase(`deriving tables (${step.replace(/^\w+:/, '')} done)`)
  }
  const tables: Record<string, TableStats> = {}
  const stallMs = options.stallMs ?? 20_000
  let ahead: CountsAhead | undefined
  try {
    master = await connectMaster(mysqlUrl)
    failOnStall(master, stallMs)
    const connection = master
    // at once, a query in flight or not (a count takes seconds), and the counts asked ahead with it
    options.signal?.addEventListener('abort', () => {
      dropConnection(connection)
      ahead?.stop()
    }, { once: true })
    if (options.signal?.aborted) throw new Error('sync stopped')
    await beginSnapshot(master)
    // data_as_of and the feed position: the master's clock as this snapshot is read, committed with the data
    run.snapshotAt(await masterNow(master))
    phase('snapshot')
    const marks = { listing_daily_metrics: run.meta(watermarkKey('listing_daily_metrics')), call_logs: run.meta(watermarkKey('call_logs')) }
    const full = marks.call_logs === null
    // verification's counts, asked now on a connection of their own: the master counts while the run works
    const newestCall = full ? null : (await queryRows<{ maxId: number | null }>(master, NEWEST_CALL))[0].maxId
    ahead = full ? undefined : countAhead(mysqlUrl, newestCall, options.beforeCountsAhead)
    // the totals of the progress lines: what this run's snapshot holds for it to read
    progress?.phase('counting the rows to read')
    const totals = progress ? await rowsToRead(master, full ? { listing_daily_metrics: null, call_logs: null } : marks) : undefined

    progress?.phase('reading the small tables')
    // a small table is read whole only when its fingerprint at the master moved (or on a full
    // load): most runs change none, and rewriting them all dirtied about 5,000 pages a run
    // (products and their nine indexes, images, stores). Then only its rows that differ are
    // written (smallTables.ts updateTable), and a full load writes it afresh.
    const fingerprints = await smallTableFingerprints(master)
    const rewritten = new Set<SmallTable>()
    for (const [name, { into }] of Object.entries(SMALL_MASTER_TABLES)) {
      const stats: TableStats = (tables[name] = { read: 0, written: 0 })
      // kept with the digest of what the store then wrote: a release before fingerprints that wrote
      // the table since (a downgrade) moved the digest, and the table is written again
      if (!full && run.meta(fingerprintKey(into)) === `${fingerprints[name]}/${run.meta(digestKey(into))}`) {
        stats.unchanged = true
        continue
      }
      const write = run.smallTable(into, full)
      rewritten.add(into)
      // what the table holds, as a digest: a server keeps what it built from a table the run did not change
      const digest = createHash('sha256')
      for await (const rows of streamRows<SmallRow>(master, selectFrom(name))) {
        stats.read += rows.length
        write.take(rows)
        for (const row of rows) digest.update(`${JSON.stringify(row)}\n`) // a row at a time: the batches' sizes vary from run to run
        progress?.add(rows.length)
      }
      stats.written = write.finish()
      const written = digest.digest('hex')
      run.setMeta(digestKey(into), written)
      run.setMeta(fingerprintKey(into), `${fingerprints[name]}/${written}`)
    }
    phase('small-tables')

    const load = full ? run.fullLoad() : undefined
    // what is derived from a small table is derived again when the table was written again
    const changes = full ? undefined : run.changes({
      stores: rewritten.has('stores') || rewritten.has('dealers'),
      products: rewritten.has('products') || rewritten.has('product_images'),
    })
    for (const name of Object.keys(LARGE_MASTER_TABLES) as LargeTable[]) {
      const mark = full ? null : marks[name]
      const stats = (tables[name] = { read: 0, written: 0 })
      progress?.phase(`reading ${name}`, totals?.[name])
      // a full load reads listing rows in key order, so their running totals are computed as they pass
      const sql = mark === null
        ? `${selectFrom(name)}${name === 'listing_daily_metrics' ? ' ORDER BY website_id, metric_date' : ''}`
        : `${selectFrom(name)} WHERE updated_at >= CAST(? AS DATETIME) - INTERVAL ${LOOK_BACK_SECONDS} SECOND`
      let newest = mark
      for await (const rows of streamRows<LargeRow<typeof name>>(master, sql, mark === null ? [] : [mark])) {
        stats.read += rows.length
        if (name === 'call_logs') stats.written += (load ?? changes!).calls(rows as LargeRow<'call_logs'>[])
        else stats.written += (load ?? changes!).metrics(rows as LargeRow<'listing_daily_metrics'>[])
        for (const r of rows) if (newest === null || r.updated_at > newest) newest = r.updated_at
        progress?.add(rows.length)
        phase(`batch:${name}`)
      }
      if (newest !== null) run.setMeta(watermarkKey(name), newest)
    }
    phase('large-tables')

    let repaired = 0
    let verification: SyncResult['verification']
    progress?.phase('deriving tables')
    if (load) {
      load.finish()
      phase('derived')
    } else {
      changes!.refresh()
      phase('derived')
      progress?.phase('verifying a window of rows against the master')
      const { repaired: found, ...how } = await verify(master, run, changes!, ahead!, stallMs, newestCall, options.verifyWindow ?? VERIFY_WINDOW)
      repaired = found
      verification = how
      if (repaired) changes!.refresh()
      phase('verified')
    }

    const result: SyncResult = { full, tables, repaired, ...(verification ? { verification } : {}), ms: Math.round(performance.now() - started), phases }
    progress?.phase('committing')
    run.commit(result)
    phase('committed')
    progress?.phase('checkpointing')
    run.checkpoint()
    phase('checkpointed')
    // what the caller reports includes the commit; the run's record (written by the commit) could not
    result.ms = Math.round(performance.now() - started)
    return result
  } catch (error) {
    // a stop drops the connection under a query: say so, not what the dropped query said
    const message = options.signal?.aborted ? 'sync stopped' : oneLine(error)
    run.fail(message, { tables })
    throw new Error(message)
  } finally {
    master?.destroy()
    ahead?.stop() // a count still asked for when the run failed
  }
}

/**
 * Raised by a release that converts the master's values otherwise (master.ts's connection
 * options) without a migration of the store: it then writes every small table again once.
 */
const SMALL_TABLES_FORMAT = 1

const SMALL_NAMES = Object.keys(SMALL_MASTER_TABLES)
/**
 * What the store makes of the small tables: the statements that read them, the store's
 * columns and migrations, the derivations and SMALL_TABLES_FORMAT. Kept with each
 * fingerprint, so a release that changes any of these writes every small table again once.
 */
const SMALL_TABLES_WRITTEN_AS = createHash('sha256')
  .update([SMALL_TABLES_FORMAT, newestMigrationMillis, JSON.stringify(SMALL_TABLES), ...SMALL_NAMES.map(selectFrom), STORES_DERIVATION, ...PRODUCTS_DERIVATION].join('\n'))
  .digest('hex')
  .slice(0, 16)
/** The statement that fingerprints them all (masterTables.ts): the same every run. */
const FINGERPRINTS_SQL = fingerprintsSql(SMALL_NAMES)

/** Each small table's fingerprint at the master, by master table, with SMALL_TABLES_WRITTEN_AS. */
async function smallTableFingerprints(master: Master): Promise<Record<string, string>> {
  const rows = await queryRows<{ name: string; n: number; a: string; b: string }>(master, FINGERPRINTS_SQL)
  const byName = Object.fromEntries(rows.map((r) => [r.name, `${SMALL_TABLES_WRITTEN_AS}:${r.n}:${r.a}:${r.b}`]))
  // a table without one would be stored as matching for good
  for (const name of SMALL_NAMES) if (!byName[name]) throw new Error(`the master gave no fingerprint of ${name}`)
  return byName
}

/** Rows the run will read of each large table: all of them, or those from the watermark less the look-back. */
async function rowsToRead(master: Master, marks: Record<LargeTable, string | null>) {
  const count = (table: string, mark: string | null) =>
    mark === null ? `(SELECT count(*) FROM ${table})` : `(SELECT count(*) FROM ${table} WHERE updated_at >= CAST(? AS DATETIME) - INTERVAL ${LOOK_BACK_SECONDS} SECOND)`
  const params = [marks.listing_daily_metrics, marks.call_logs].filter((m) => m !== null)
  const [row] = await queryRows<{ metrics: number; calls: number }>(
    master,
    `SELECT ${count('listing_daily_metrics', marks.listing_daily_metrics)} AS metrics, ${count('call_logs', marks.call_logs)} AS calls`,
    params,
  )
  return { listing_daily_metrics: Number(row.metrics), call_logs: Number(row.calls) }
}

function oneLine(error: unknown): string {
  const e = error as { code?: string; message?: string }
  const text = e?.message || e?.code || String(error)
  return text.split('\n')[0]
}
