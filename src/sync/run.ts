// One sync run: master (one REPEATABLE READ snapshot) → read store (one
// SQLite transaction on the sync's own connection). Small tables are read
// whole and replaced, so hard deletes and flags propagate; call_logs and
// listing_daily_metrics are read from their updated_at watermark less a
// look-back window (writers commit up to 300 s late). After the data, a
// verification pass compares the two and repairs what differs.
import type { Database } from 'bun:sqlite'
import { SMALL_TABLE_NAMES, StoreWriter, type MasterRow } from '../store/apply'
import { beginSnapshot, connectMaster, queryRows, streamRows, type Master } from './master'

/**
 * Calls (by master id) whose every field each run compares with the master, and about as
 * many listing rows: 20 million calls are all checked in about 400 runs (4 days at 15
 * minutes), at about half a second a run.
 */
export const VERIFY_WINDOW = 50_000

/** Re-read this far behind the newest updated_at already seen (master-contract §3). */
export const LOOK_BACK_SECONDS = 300

const SELECT = {
  dealer_master: 'SELECT sap_code, dealer_name, is_active FROM dealer_master',
  websites: 'SELECT id, sap_code, store_name, city, district, state, country, pincode, is_deleted FROM websites',
  employees: 'SELECT emp_code, emp_name, sales_office, role, is_active FROM employees',
  employee_dealers: 'SELECT emp_code, sap_code FROM employee_dealers',
  products: 'SELECT id, sku, name, description, color, finish, series, size, surface, product_range, texture, status FROM products',
  product_images: 'SELECT id, product_id, image_path, sort_order FROM product_images',
  api_integrations: 'SELECT id, name, api_key_sha256, is_active, created_at FROM api_integrations',
  listing_daily_metrics: `SELECT website_id, metric_date, desktop_search_impressions, mobile_search_impressions, desktop_maps_impressions,
    mobile_maps_impressions, website_clicks, call_clicks, direction_requests, business_bookings, updated_at FROM listing_daily_metrics`,
  call_logs: `SELECT id, call_log_id, website_id, caller_number, call_start_time, duration_seconds, did_number, event_type, substatus,
    recording_url, crm_lead_id, crm_synced_at, created_at, updated_at FROM call_logs`,
} as const

export interface TableStats {
  read: number
  written: number
}

export interface SyncResult {
  full: boolean
  tables: Record<string, TableStats>
  repaired: number
  ms: number
  /** milliseconds spent in each phase, for operators and benchmarks */
  phases: Record<string, number>
}

export interface SyncOptions {
  log?: (message: string) => void
  /** test hook: called at named points of the run (a test can kill the process there) */
  onPhase?: (phase: string) => void
  verifyWindow?: number
  /** aborting ends the run: the master connection is closed and the run rolls back */
  signal?: AbortSignal
}

const now = () => new Date().toISOString()

/** Runs one sync into the read store whose own (not shared) connection is `client`. */
export async function runSync(client: Database, mysqlUrl: string, options: SyncOptions = {}): Promise<SyncResult> {
  const started = performance.now()
  const phases: Record<string, number> = {}
  let lastMark = started
  const phase = (name: string) => {
    options.onPhase?.(name)
    if (name.startsWith('batch:')) return
    const t = performance.now()
    phases[name] = Math.round(t - lastMark)
    lastMark = t
  }
  const runId = Number(client.prepare('INSERT INTO sync_runs (started_at) VALUES (?)').run(now()).lastInsertRowid)
  // sorts and window functions over millions of rows spill to temporary files, not memory
  client.run('PRAGMA temp_store = FILE')
  // bounded memory whatever the table sizes: a 32 MiB page cache, sorts spill beyond their
  // share of it, and a second thread helps with the large sorts of a full load
  client.run('PRAGMA cache_size = -32768')
  client.run('PRAGMA threads = 2')
  const writer = new StoreWriter(client)
  let master: Master | undefined
  const tables: Record<string, TableStats> = {}
  try {
    master = await connectMaster(mysqlUrl)
    watchSocket(master)
    const connection = master
    options.signal?.addEventListener('abort', () => connection.destroy(), { once: true })
    if (options.signal?.aborted) throw new Error('sync stopped')
    await beginSnapshot(master)
    phase('snapshot')
    writer.begin()
    const full = writer.meta('watermark:call_logs') === null

    for (const name of SMALL_TABLE_NAMES) {
      writer.clearSmall(name)
      const stats = (tables[name] = { read: 0, written: 0 })
      for await (const rows of streamRows<MasterRow>(master, SELECT[name])) {
        stats.read += rows.length
        stats.written += writer.insertSmall(name, rows)
      }
    }
    phase('small-tables')

    if (full) {
      // a full load is sorts and appends: a small cache keeps each sorter's memory small too
      // (measured: 8 MiB with two threads was faster than 32 MiB with one, at less memory)
      client.run('PRAGMA cache_size = -8192')
      writer.beginFullLoad()
    }
    for (const name of ['listing_daily_metrics', 'call_logs'] as const) {
      const mark = full ? null : writer.meta(`watermark:${name}`)
      const stats = (tables[name] = { read: 0, written: 0 })
      // a full load reads listing rows in key order, so their running totals are computed as they pass
      const sql = mark === null
        ? `${SELECT[name]}${name === 'listing_daily_metrics' ? ' ORDER BY website_id, metric_date' : ''}`
        : `${SELECT[name]} WHERE updated_at >= CAST(? AS DATETIME) - INTERVAL ${LOOK_BACK_SECONDS} SECOND`
      let newest = mark
      for await (const rows of streamRows<MasterRow>(master, sql, mark === null ? [] : [mark])) {
        stats.read += rows.length
        if (full) stats.written += name === 'call_logs' ? writer.loadCalls(rows) : writer.loadMetrics(rows)
        else stats.written += name === 'call_logs' ? writer.upsertCalls(rows) : writer.upsertMetrics(rows)
        for (const r of rows) if (newest === null || String(r.updated_at) > newest) newest = String(r.updated_at)
        phase(`batch:${name}`)
      }
      if (newest !== null) writer.setMeta(`watermark:${name}`, newest)
    }
    phase('large-tables')
    if (full) Bun.gc(true) // millions of streamed rows are garbage now; collect before the sorts take their memory

    let repaired = 0
    if (full) {
      writer.finishFullLoad()
      phase('derived')
    } else {
      // the master counts its two large tables while this process refreshes the derived rows
      const counting = queryRows<MasterCounts>(master, COUNTS)
      writer.refreshIncremental()
      phase('derived')
      repaired = await verify(master, writer, (await counting)[0], options.verifyWindow ?? VERIFY_WINDOW)
      if (repaired) writer.refreshIncremental()
      phase('verified')
    }

    const result: SyncResult = { full, tables, repaired, ms: Math.round(performance.now() - started), phases: { ...phases, ...writer.timings } }
    client.prepare('UPDATE sync_runs SET finished_at = ?, ok = 1, stats = ? WHERE id = ?').run(now(), JSON.stringify(result), runId)
    writer.commit()
    phase('committed')
    return result
  } catch (error) {
    writer.rollback()
    const message = oneLine(error)
    client.prepare('UPDATE sync_runs SET finished_at = ?, ok = 0, error = ?, stats = ? WHERE id = ?').run(now(), message, JSON.stringify({ tables }), runId)
    throw new Error(message)
  } finally {
    master?.destroy()
  }
}

/**
 * Compares the master's snapshot with the read store: row counts of the two
 * large tables, and every field of one window of calls (by master id) and of
 * listing rows (by store) per run; the windows advance each run and wrap, so
 * over several runs every row is checked. Rows that differ are written again;
 * returns how many. (The small tables are read whole every run.)
 */
const COUNTS = 'SELECT (SELECT count(*) FROM call_logs) AS calls, (SELECT count(*) FROM listing_daily_metrics) AS metrics, (SELECT max(id) FROM call_logs) AS maxId'
interface MasterCounts {
  calls: number
  metrics: number
  maxId: number | null
}

async function verify(master: Master, writer: StoreWriter, { calls, metrics, maxId }: MasterCounts, window: number): Promise<number> {
  let repaired = 0
  const local = writer.client.query('SELECT (SELECT count(*) FROM calls) AS calls, (SELECT count(*) FROM metrics) AS metrics').get() as { calls: number; metrics: number }
  if (Number(metrics) !== local.metrics) {
    // listing rows are never deleted in the master, so a count gap means rows were missed: read them all again
    for await (const rows of streamRows<MasterRow>(master, SELECT.listing_daily_metrics)) repaired += writer.upsertMetrics(rows)
  }
  const whole = Number(calls) !== local.calls
  const from = whole ? 0 : Number(writer.meta('verify:call_logs') ?? 0)
  const to = whole ? Number.MAX_SAFE_INTEGER : from + window
  for await (const rows of streamRows<MasterRow>(master, `${SELECT.call_logs} WHERE id > ? AND id <= ?`, [from, to])) {
    repaired += writer.upsertCalls(rows)
  }
  writer.setMeta('verify:call_logs', String(whole || to >= Number(maxId ?? 0) ? 0 : to))

  // listing rows: every field of a window of stores (about as many rows as the calls window)
  const [{ maxStore }] = await queryRows<{ maxStore: number | null }>(master, 'SELECT max(website_id) AS maxStore FROM listing_daily_metrics')
  const storeFrom = Number(writer.meta('verify:listing_daily_metrics') ?? 0)
  const storeTo = storeFrom + Math.max(1, Math.ceil(window / 730))
  for await (const rows of streamRows<MasterRow>(master, `${SELECT.listing_daily_metrics} WHERE website_id > ? AND website_id <= ?`, [storeFrom, storeTo])) {
    repaired += writer.upsertMetrics(rows)
  }
  writer.setMeta('verify:listing_daily_metrics', String(storeTo >= Number(maxStore ?? 0) ? 0 : storeTo))
  return repaired
}

// A master that stops answering mid-run must fail the run, not hang it.
function watchSocket(master: Master): void {
  const raw = (master as unknown as { connection: { stream?: { setTimeout(ms: number, cb: () => void): void; destroy(e?: Error): void } } }).connection
  raw.stream?.setTimeout(20_000, () => raw.stream?.destroy(new Error('the master stopped answering for 20 s')))
}

function oneLine(error: unknown): string {
  const e = error as { code?: string; message?: string }
  const text = e?.message || e?.code || String(error)
  return text.split('\n')[0]
}
