// The read-store side of a sync run: one IMMEDIATE transaction on the sync's
// own connection, base rows in, derived tables brought up to date, watermarks
// and the run record written, then one COMMIT. Readers (WAL, other
// connections) see the previous state until that commit, and nothing after a
// crash, which SQLite rolls back.
import type { Database, Statement } from 'bun:sqlite'
import { mobileOf, rebuildCallDays, refreshProducts, refreshStores } from './refresh'

/** Master rows as sync reads them (column names of master-schema.sql; times as text). */
export type MasterRow = Record<string, string | number | null>

const SMALL_TABLES = {
  dealer_master: { table: 'dealers', columns: ['sap_code', 'dealer_name', 'is_active'], from: ['sap_code', 'dealer_name', 'is_active'] },
  websites: {
    table: 'stores',
    columns: ['website_id', 'sap_code', 'store_name', 'city', 'district', 'state', 'country', 'pincode', 'is_deleted'],
    from: ['id', 'sap_code', 'store_name', 'city', 'district', 'state', 'country', 'pincode', 'is_deleted'],
  },
  employees: { table: 'employees', columns: ['emp_code', 'emp_name', 'sales_office', 'role', 'is_active'], from: ['emp_code', 'emp_name', 'sales_office', 'role', 'is_active'] },
  employee_dealers: { table: 'employee_dealers', columns: ['emp_code', 'sap_code'], from: ['emp_code', 'sap_code'] },
  products: {
    table: 'products',
    columns: ['id', 'sku', 'name', 'description', 'color', 'finish', 'series', 'size', 'surface', 'product_range', 'texture', 'status'],
    from: ['id', 'sku', 'name', 'description', 'color', 'finish', 'series', 'size', 'surface', 'product_range', 'texture', 'status'],
  },
  product_images: { table: 'product_images', columns: ['id', 'product_id', 'image_path', 'sort_order'], from: ['id', 'product_id', 'image_path', 'sort_order'] },
  api_integrations: { table: 'integrations', columns: ['id', 'name', 'key_sha256', 'is_active', 'created_at'], from: ['id', 'name', 'api_key_sha256', 'is_active', 'created_at'] },
} as const
export type SmallTable = keyof typeof SMALL_TABLES

/** A per-store table with running totals: what each row adds, and the columns that hold the totals. */
interface Totals {
  table: string
  key: string
  increments: string[]
  cums: string[]
}
const METRIC_TOTALS: Totals = {
  table: 'metrics',
  key: 'metric_date',
  increments: ['1', 'desktop_search_impressions + mobile_search_impressions + desktop_maps_impressions + mobile_maps_impressions', 'website_clicks', 'call_clicks', 'direction_requests', 'business_bookings'],
  cums: ['seq', 'cum_search', 'cum_website_clicks', 'cum_call_clicks', 'cum_direction_requests', 'cum_business_bookings'],
}
const CALL_DAY_TOTALS: Totals = {
  table: 'call_days',
  key: 'day',
  increments: ['answered', 'missed', 'offline', 'sec_answered', 'sec_missed', 'sec_offline'],
  cums: ['cum_answered', 'cum_missed', 'cum_offline', 'cum_sec_answered', 'cum_sec_missed', 'cum_sec_offline'],
}
export const SMALL_TABLE_NAMES = Object.keys(SMALL_TABLES) as SmallTable[]

const METRIC_COLUMNS = [
  'desktop_search_impressions', 'mobile_search_impressions', 'desktop_maps_impressions', 'mobile_maps_impressions',
  'website_clicks', 'call_clicks', 'direction_requests', 'business_bookings',
] as const
const CALL_FIELDS = ['caller_number', 'duration_seconds', 'did_number', 'event_type', 'substatus', 'recording_url', 'crm_lead_id', 'crm_synced_at', 'created_at'] as const

interface StoredCall {
  website_id: number
  call_start_time: string
  mobile: string
  substatus: string
  duration_seconds: number
  [field: string]: string | number | null
}

export interface ApplyCounts {
  read: number
  written: number
}

export class StoreWriter {
  private stmts = new Map<string, Statement>()
  private affectedDays = new Set<string>() // `${website_id}|${day}`
  private affectedMinutes = new Set<string>()
  private affectedMobiles = new Map<string, string>() // mobile → earliest touched `${time}|${call_log_id}`
  private affectedMetricStores = new Map<number, string>() // website_id → earliest changed date
  private visibleBefore = new Map<number, number>()
  /** milliseconds per step of the derived refresh, reported with the run's phases */
  readonly timings: Record<string, number> = {}
  private lap = 0
  private mark(step: string): void {
    const now = performance.now()
    this.timings[step] = Math.round(now - this.lap)
    this.lap = now
  }

  constructor(readonly client: Database) {}

  private stmt(sql: string): Statement {
    let s = this.stmts.get(sql)
    if (!s) this.stmts.set(sql, (s = this.client.prepare(sql)))
    return s
  }

  begin(): void {
    this.client.run('BEGIN IMMEDIATE')
    for (const r of this.client.query('SELECT website_id, visible FROM stores').all() as { website_id: number; visible: number }[]) {
      this.visibleBefore.set(r.website_id, r.visible)
    }
  }

  commit(): void {
    this.client.run('COMMIT')
  }

  rollback(): void {
    if (this.client.inTransaction) this.client.run('ROLLBACK')
  }

  meta(key: string): string | null {
    return (this.client.query('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | null)?.value ?? null
  }

  setMeta(key: string, value: string): void {
    this.stmt('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value)
  }

  /** Empties a small table before its rows are read again whole (hard deletes must vanish). */
  clearSmall(name: SmallTable): void {
    this.client.run(`DELETE FROM ${SMALL_TABLES[name].table}`)
  }

  insertSmall(name: SmallTable, rows: MasterRow[]): number {
    const { table, columns, from } = SMALL_TABLES[name]
    const insert = this.stmt(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
    for (const row of rows) insert.run(...from.map((c) => row[c] ?? null))
    return rows.length
  }

  /** Upserts listing rows; returns how many changed. */
  upsertMetrics(rows: MasterRow[]): number {
    const upsert = this.stmt(`INSERT INTO metrics (website_id, metric_date, ${METRIC_COLUMNS.join(', ')}) VALUES (?, ?, ${METRIC_COLUMNS.map(() => '?').join(', ')})
      ON CONFLICT (website_id, metric_date) DO UPDATE SET ${METRIC_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}
      WHERE ${METRIC_COLUMNS.map((c) => `${c} IS NOT excluded.${c}`).join(' OR ')}`)
    let changed = 0
    for (const r of rows) {
      const n = upsert.run(r.website_id, r.metric_date, ...METRIC_COLUMNS.map((c) => r[c])).changes
      if (n === 0) continue
      changed++
      const id = Number(r.website_id)
      const earliest = this.affectedMetricStores.get(id)
      if (earliest === undefined || String(r.metric_date) < earliest) this.affectedMetricStores.set(id, String(r.metric_date))
    }
    return changed
  }

  /** Upserts calls by call_log_id; returns how many changed. Tracks what derived rows they touch. */
  upsertCalls(rows: MasterRow[]): number {
    const find = this.stmt(`SELECT website_id, call_start_time, mobile, ${CALL_FIELDS.join(', ')} FROM calls WHERE call_log_id = ?`)
    const remove = this.stmt('DELETE FROM calls WHERE call_log_id = ?')
    const insert = this.stmt(`INSERT INTO calls (website_id, call_start_time, call_log_id, mobile, ${CALL_FIELDS.join(', ')})
      VALUES (?, ?, ?, ?, ${CALL_FIELDS.map(() => '?').join(', ')})`)
    const update = this.stmt(`UPDATE calls SET mobile = ?, ${CALL_FIELDS.map((c) => `${c} = ?`).join(', ')} WHERE call_log_id = ?`)
    let changed = 0
    // by call_log_id, the unique index each row is looked up in: a batch then walks it in order
    for (const r of [...rows].sort((a, b) => (String(a.call_log_id) < String(b.call_log_id) ? -1 : 1))) {
      const websiteId = r.website_id === null ? 0 : Number(r.website_id)
      const time = String(r.call_start_time)
      const mobile = mobileOf(String(r.caller_number))
      const values = CALL_FIELDS.map((c) => r[c] ?? null)
      const old = find.get(r.call_log_id) as StoredCall | null
      const id = String(r.call_log_id)
      if (!old) {
        insert.run(websiteId, time, id, mobile, ...values)
        this.touchCounts(websiteId, time)
        this.touchCaller(mobile, time, id)
      } else if (old.website_id === websiteId && old.call_start_time === time) {
        if (CALL_FIELDS.every((c, i) => old[c] === values[i])) continue
        update.run(mobile, ...values, id)
        // a recording or CRM field filled in later changes no count; a corrected substatus does
        if (old.substatus !== r.substatus || old.duration_seconds !== Number(r.duration_seconds)) this.touchCounts(websiteId, time)
        if (old.mobile !== mobile) {
          this.touchCaller(old.mobile, time, id)
          this.touchCaller(mobile, time, id)
        }
      } else {
        remove.run(id)
        insert.run(websiteId, time, id, mobile, ...values)
        this.touchCounts(old.website_id, old.call_start_time)
        this.touchCounts(websiteId, time)
        this.touchCaller(old.mobile, old.call_start_time, id)
        this.touchCaller(mobile, time, id)
      }
      changed++
    }
    return changed
  }

  private touchCounts(websiteId: number, time: string): void {
    if (websiteId !== 0) this.affectedDays.add(`${websiteId}|${time.slice(0, 10)}`)
    this.affectedMinutes.add(time.slice(0, 16))
  }

  private touchCaller(mobile: string, time: string, callLogId: string): void {
    const position = `${time}|${callLogId}`
    const earliest = this.affectedMobiles.get(mobile)
    if (earliest === undefined || position < earliest) this.affectedMobiles.set(mobile, position)
  }

  private callIndexes: string[] = []
  private visibleStores = new Set<number>()
  // per day, [answered, missed, offline] for each of its 1440 minutes: 17 KB a day, not a row per minute in a Map
  private minuteCounts = new Map<string, Int32Array>()
  private metricRun = { websiteId: -1, seq: 0, s: 0, w: 0, c: 0, d: 0, b: 0 }

  /**
   * A full load writes calls to an unindexed staging table first and moves
   * them into the clustered table in key order at the end, computing each
   * call's place in its caller's sequence on the way; the secondary indexes
   * are built once, after. Random-order inserts into a 20-million-row B-tree
   * would be many times slower.
   */
  beginFullLoad(): void {
    for (const t of ['calls', 'metrics', 'call_days', 'call_minutes']) this.client.run(`DELETE FROM ${t}`)
    // the small tables are in: which stores are visible is known, so call_minutes is counted as calls pass
    refreshStores(this.client)
    this.visibleStores = new Set((this.client.query('SELECT website_id FROM stores WHERE visible = 1').all() as { website_id: number }[]).map((r) => r.website_id))
    const indexes = this.client.query("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'calls' AND sql IS NOT NULL").all() as { name: string; sql: string }[]
    this.callIndexes = indexes.map((i) => i.sql)
    for (const i of indexes) this.client.run(`DROP INDEX ${i.name}`)
    this.client.run(`CREATE TABLE load_calls (website_id INTEGER, call_start_time TEXT, call_log_id TEXT, mobile TEXT,
      ${CALL_FIELDS.join(', ')})`)
  }

  loadCalls(rows: MasterRow[]): number {
    const insert = this.stmt(`INSERT INTO load_calls VALUES (?, ?, ?, ?, ${CALL_FIELDS.map(() => '?').join(', ')})`)
    for (const r of rows) {
      const websiteId = r.website_id === null ? 0 : Number(r.website_id)
      const time = String(r.call_start_time)
      insert.run(websiteId, time, r.call_log_id, mobileOf(String(r.caller_number)), ...CALL_FIELDS.map((c) => r[c] ?? null))
      if (!this.visibleStores.has(websiteId)) continue
      const day = time.slice(0, 10)
      let counts = this.minuteCounts.get(day)
      if (!counts) this.minuteCounts.set(day, (counts = new Int32Array(1440 * 3)))
      const slot = (Number(time.slice(11, 13)) * 60 + Number(time.slice(14, 16))) * 3
      counts[slot + (r.substatus === 'Answered' ? 0 : r.substatus === 'Missed' ? 1 : 2)]++
    }
    return rows.length
  }

  /** Listing rows of a full load, read in (website_id, metric_date) order: running totals computed as they pass. */
  loadMetrics(rows: MasterRow[]): number {
    const insert = this.stmt(`INSERT INTO metrics (website_id, metric_date, ${METRIC_COLUMNS.join(', ')}, seq, cum_search, cum_website_clicks,
      cum_call_clicks, cum_direction_requests, cum_business_bookings) VALUES (?, ?, ${METRIC_COLUMNS.map(() => '?').join(', ')}, ?, ?, ?, ?, ?, ?)`)
    const run = this.metricRun
    for (const r of rows) {
      const id = Number(r.website_id)
      if (id !== run.websiteId) Object.assign(run, { websiteId: id, seq: 0, s: 0, w: 0, c: 0, d: 0, b: 0 })
      const v = METRIC_COLUMNS.map((c) => Number(r[c]))
      run.seq++
      run.s += v[0] + v[1] + v[2] + v[3]
      run.w += v[4]
      run.c += v[5]
      run.d += v[6]
      run.b += v[7]
      insert.run(id, r.metric_date, ...v, run.seq, run.s, run.w, run.c, run.d, run.b)
    }
    return rows.length
  }

  finishFullLoad(): void {
    this.lap = performance.now()
    this.client.run(`INSERT INTO calls (website_id, call_start_time, call_log_id, mobile, ${CALL_FIELDS.join(', ')}, prev_calls_count)
      SELECT website_id, call_start_time, call_log_id, mobile, ${CALL_FIELDS.join(', ')},
        row_number() OVER (PARTITION BY mobile ORDER BY call_start_time, call_log_id) - 1
      FROM load_calls ORDER BY website_id, call_start_time, call_log_id`)
    this.client.run('DROP TABLE load_calls')
    this.mark('full:calls sorted into place')
    for (const sql of this.callIndexes) this.client.run(sql)
    this.mark('full:call indexes')
    rebuildCallDays(this.client)
    this.mark('full:call_days')
    const insert = this.stmt('INSERT INTO call_minutes (minute, answered, missed, offline, cum_answered, cum_missed, cum_offline) VALUES (?, ?, ?, ?, ?, ?, ?)')
    let a = 0
    let m = 0
    let o = 0
    for (const day of [...this.minuteCounts.keys()].sort()) {
      const counts = this.minuteCounts.get(day)!
      for (let i = 0; i < 1440; i++) {
        const [ca, cm, co] = [counts[i * 3], counts[i * 3 + 1], counts[i * 3 + 2]]
        if (ca + cm + co === 0) continue
        a += ca
        m += cm
        o += co
        insert.run(`${day} ${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`, ca, cm, co, a, m, o)
      }
    }
    this.minuteCounts.clear()
    refreshProducts(this.client)
    this.mark('full:call_minutes and products')
  }

  /** Derived rows touched by this run only: what an incremental run changed. */
  refreshIncremental(): void {
    // statements are prepared once per writer: thousands of stores and days run the same few
    const run = (sql: string, ...params: (string | number)[]) => this.stmt(sql).run(...params)
    this.lap = performance.now()
    refreshStores(this.client)
    // a store that became visible or invisible changes the all-stores minute counts wherever it had calls
    for (const r of this.client.query('SELECT website_id, visible FROM stores').all() as { website_id: number; visible: number }[]) {
      if ((this.visibleBefore.get(r.website_id) ?? 0) !== r.visible) this.touchStoreMinutes(r.website_id)
    }
    for (const [id, visible] of this.visibleBefore) {
      if (visible && !this.client.query('SELECT 1 FROM stores WHERE website_id = ?').get(id)) this.touchStoreMinutes(id)
    }

    this.mark('derived:stores')
    // listing rows: seq and running totals from the earliest changed date of each store
    // in key order throughout: neighbouring keys share pages, so the writes stay local
    for (const [id, from] of [...this.affectedMetricStores].sort((a, b) => a[0] - b[0])) this.rerunTotals(METRIC_TOTALS, id, from)

    this.mark('derived:metrics')
    // per store and day: recount the touched days, then running totals from the earliest
    const earliestDay = new Map<number, string>()
    for (const key of [...this.affectedDays].sort()) {
      const [idText, day] = key.split('|')
      const id = Number(idText)
      run('DELETE FROM call_days WHERE website_id = ? AND day = ?', id, day)
      run(`INSERT INTO call_days (website_id, day, answered, missed, offline, sec_answered, sec_missed, sec_offline)
        SELECT website_id, ?2, sum(substatus = 'Answered'), sum(substatus = 'Missed'), sum(substatus = 'Offline'),
          sum(iif(substatus = 'Answered', duration_seconds, 0)), sum(iif(substatus = 'Missed', duration_seconds, 0)), sum(iif(substatus = 'Offline', duration_seconds, 0))
        FROM calls WHERE website_id = ?1 AND call_start_time >= ?2 || ' 00:00:00' AND call_start_time <= ?2 || ' 23:59:59'
        GROUP BY website_id`, id, day)
      const e = earliestDay.get(id)
      if (e === undefined || day < e) earliestDay.set(id, day)
    }
    for (const [id, from] of earliestDay) this.rerunTotals(CALL_DAY_TOTALS, id, from)

    this.mark('derived:call_days')
    // all visible stores per minute: recount the touched minutes, then fix the running totals. Rows
    // between two touched minutes all move by the same amount, so each gap is one range UPDATE.
    const minutes = [...this.affectedMinutes].sort()
    const counts = this.stmt('SELECT answered + 0 AS a, missed + 0 AS m, offline + 0 AS o FROM call_minutes WHERE minute = ?')
    const recount = this.stmt(`INSERT INTO call_minutes (minute, answered, missed, offline)
        SELECT ?1, sum(c.substatus = 'Answered'), sum(c.substatus = 'Missed'), sum(c.substatus = 'Offline')
        FROM calls c INDEXED BY calls_time JOIN stores s ON s.website_id = c.website_id AND s.visible = 1
        WHERE c.call_start_time >= ?1 || ':00' AND c.call_start_time <= ?1 || ':59'
        HAVING count(*) > 0
      ON CONFLICT (minute) DO UPDATE SET answered = excluded.answered, missed = excluded.missed, offline = excluded.offline`)
    const removeMinute = this.stmt('DELETE FROM call_minutes WHERE minute = ?')
    const previous = this.stmt('SELECT cum_answered AS a, cum_missed AS m, cum_offline AS o FROM call_minutes WHERE minute < ? ORDER BY minute DESC LIMIT 1')
    const setCum = this.stmt('UPDATE call_minutes SET cum_answered = ? + answered, cum_missed = ? + missed, cum_offline = ? + offline WHERE minute = ?')
    const SHIFT = 'UPDATE call_minutes SET cum_answered = cum_answered + ?1, cum_missed = cum_missed + ?2, cum_offline = cum_offline + ?3 WHERE minute > ?4'
    const shiftBetween = this.stmt(`${SHIFT} AND minute < ?5`) // two statements: an "OR ?5 IS NULL" would defeat the key range
    const shiftToEnd = this.stmt(SHIFT)
    type Abc = { a: number; m: number; o: number }
    const zero: Abc = { a: 0, m: 0, o: 0 }
    const delta: Abc = { a: 0, m: 0, o: 0 }
    for (let i = 0; i < minutes.length; i++) {
      const minute = minutes[i]
      const old = (counts.get(minute) as Abc | null) ?? zero
      removeMinute.run(minute)
      recount.run(minute)
      const now = (counts.get(minute) as Abc | null) ?? zero
      delta.a += now.a - old.a
      delta.m += now.m - old.m
      delta.o += now.o - old.o
      const p = (previous.get(minute) as Abc | null) ?? zero // already right: minutes go in order
      setCum.run(p.a, p.m, p.o, minute)
      if (!delta.a && !delta.m && !delta.o) continue
      if (i + 1 < minutes.length) shiftBetween.run(delta.a, delta.m, delta.o, minute, minutes[i + 1])
      else shiftToEnd.run(delta.a, delta.m, delta.o, minute)
    }

    this.mark('derived:call_minutes')
    // callers: each call's place in its caller's sequence, renumbered from the earliest touched
    // position only (a new call usually lands at the end); the lifetime total follows from the last
    const before = this.stmt(`SELECT prev_calls_count + 1 AS n FROM calls INDEXED BY calls_mobile
      WHERE mobile = ?1 AND (call_start_time, call_log_id) < (?2, ?3)
      ORDER BY call_start_time DESC, call_log_id DESC LIMIT 1`)
    const after = this.stmt(`SELECT call_log_id, prev_calls_count FROM calls INDEXED BY calls_mobile
      WHERE mobile = ?1 AND (call_start_time, call_log_id) >= (?2, ?3)
      ORDER BY call_start_time, call_log_id`)
    const setPrev = this.stmt('UPDATE calls SET prev_calls_count = ? WHERE call_log_id = ?')
    for (const [mobile, position] of [...this.affectedMobiles].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const bar = position.indexOf('|')
      const time = position.slice(0, bar)
      const id = position.slice(bar + 1)
      let n = (before.get(mobile, time, id) as { n: number } | null)?.n ?? 0
      // read before writing: prev_calls_count is part of the index being walked
      for (const r of after.all(mobile, time, id) as { call_log_id: string; prev_calls_count: number }[]) {
        if (r.prev_calls_count !== n) setPrev.run(n, r.call_log_id)
        n++
      }
    }
    this.mark('derived:callers')

    // done: a second pass (for rows the verification repaired) starts from here
    this.affectedDays.clear()
    this.affectedMinutes.clear()
    this.affectedMobiles.clear()
    this.affectedMetricStores.clear()
    for (const r of this.client.query('SELECT website_id, visible FROM stores').all() as { website_id: number; visible: number }[]) this.visibleBefore.set(r.website_id, r.visible)

    refreshProducts(this.client)
  }

  /**
   * Running totals of one store's rows from `from` on: the row just before
   * gives the base (one seek), and only rows whose totals change are written.
   */
  private rerunTotals(spec: Totals, websiteId: number, from: string): void {
    const n = spec.cums.length
    const base = this.stmt(`SELECT ${spec.cums.join(', ')} FROM ${spec.table} WHERE website_id = ? AND ${spec.key} < ? ORDER BY ${spec.key} DESC LIMIT 1`)
    const rows = this.stmt(`SELECT ${spec.key}, ${spec.increments.join(', ')}, ${spec.cums.join(', ')} FROM ${spec.table} WHERE website_id = ? AND ${spec.key} >= ? ORDER BY ${spec.key}`)
    const update = this.stmt(`UPDATE ${spec.table} SET ${spec.cums.map((c) => `${c} = ?`).join(', ')} WHERE website_id = ? AND ${spec.key} = ?`)
    const sums = ((base.values(websiteId, from)[0] as number[] | undefined) ?? new Array(n).fill(0)).slice()
    for (const row of rows.values(websiteId, from) as (string | number)[][]) {
      let changed = false
      for (let i = 0; i < n; i++) {
        sums[i] += row[1 + i] as number
        if (sums[i] !== row[1 + n + i]) changed = true
      }
      if (changed) update.run(...sums, websiteId, row[0])
    }
  }

  private touchStoreMinutes(websiteId: number): void {
    for (const r of this.client.query("SELECT DISTINCT substr(call_start_time, 1, 16) AS minute FROM calls WHERE website_id = ?").all(websiteId) as { minute: string }[]) {
      this.affectedMinutes.add(r.minute)
    }
  }
}

