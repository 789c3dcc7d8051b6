// An incremental run's writes: changed listing rows and calls upserted by key,
// and the derived rows they touch brought up to date, each table through its
// own module in derive/: recounted where touched, totals rerun from the
// earliest touched key. A field filled in later (a recording, a CRM lead)
// touches nothing derived. Every call whose record or visibility changed takes
// the run's feed position (feed.ts).
import type { Database } from 'bun:sqlite'
import { refreshCallDays } from './derive/callDays'
import { mobileOf, placeOf, renumberCallers } from './derive/callers'
import { minutesOfStore, refreshCallMinutes } from './derive/callMinutes'
import { refreshMetricTotals } from './derive/metricTotals'
import { deriveProducts } from './derive/products'
import { deriveStores, isVisibleIn, storeFaces, storesThatTurned, type StoreFaces } from './derive/stores'
import { isShownBlank } from './fieldRules'
import { markGone, moveCallsOfChangedStores, unmarkGone } from './feed'
import { CALL_VALUES, METRIC_VALUES, type CallRow, type MetricRow } from './rows'

type StoredCall = Record<(typeof CALL_VALUES)[number], string | number | null> & { website_id: number; call_start_time: string; mobile: string; feed_seq: number }

export class Changes {
  // what this run's rows touched, refreshed by refresh()
  private days = new Set<string>() // `${website_id}|${day}`
  private minutes = new Set<string>()
  private callers = new Map<string, string>() // mobile → earliest touched place
  private metricStores = new Map<number, string>() // website_id → earliest changed date

  constructor(
    private client: Database,
    /** each store's visibility and face when the run began (derive/stores.ts) */
    private facesBefore: StoreFaces,
    /** this run's feed position */
    private seq: number,
    private step: (name: string) => void,
  ) {
    // the small tables are in: derive the stores once for the run; which are visible now decides
    // which changed calls move in the feed
    deriveStores(client)
    this.facesNow = storeFaces(client)
  }

  private readonly facesNow: StoreFaces

  /**
   * A change to a call moves it in the feed when a partner's copy may hold it: its store is
   * visible, or was when the run began. A call that was never visible keeps its position.
   */
  private shown(websiteId: number): boolean {
    return isVisibleIn(this.facesNow, websiteId) || isVisibleIn(this.facesBefore, websiteId)
  }

  /** Upserts listing rows; returns how many changed. */
  metrics(rows: MetricRow[]): number {
    const upsert = this.client.query(`INSERT INTO metrics (website_id, metric_date, ${METRIC_VALUES.join(', ')}) VALUES (?, ?, ${METRIC_VALUES.map(() => '?').join(', ')})
      ON CONFLICT (website_id, metric_date) DO UPDATE SET ${METRIC_VALUES.map((c) => `${c} = excluded.${c}`).join(', ')}
      WHERE ${METRIC_VALUES.map((c) => `${c} IS NOT excluded.${c}`).join(' OR ')}`)
    let changed = 0
    for (const r of rows) {
      if (upsert.run(r.website_id, r.metric_date, ...METRIC_VALUES.map((c) => r[c])).changes === 0) continue
      changed++
      const earliest = this.metricStores.get(r.website_id)
      if (earliest === undefined || r.metric_date < earliest) this.metricStores.set(r.website_id, r.metric_date)
    }
    return changed
  }

  /** Upserts calls by call_log_id; returns how many changed. */
  calls(rows: CallRow[]): number {
    const find = this.client.query(`SELECT website_id, call_start_time, mobile, feed_seq, ${CALL_VALUES.join(', ')} FROM calls WHERE call_log_id = ?`)
    const remove = this.client.query('DELETE FROM calls WHERE call_log_id = ?')
    const insert = this.client.query(`INSERT INTO calls (website_id, call_start_time, call_log_id, mobile, ${CALL_VALUES.join(', ')}, feed_seq)
      VALUES (?, ?, ?, ?, ${CALL_VALUES.map(() => '?').join(', ')}, ?)`)
    // a change no record shows (a blank recording becoming NULL) keeps the call's feed position
    const update = this.client.query(`UPDATE calls SET mobile = ?, ${CALL_VALUES.map((c) => `${c} = ?`).join(', ')},
      feed_seq = iif(?, ${this.seq}, feed_seq) WHERE call_log_id = ?`)
    let changed = 0
    // by call_log_id, the unique index each row is looked up in: a batch then walks it in order
    for (const r of [...rows].sort((a, b) => (a.call_log_id < b.call_log_id ? -1 : 1))) {
      const websiteId = r.website_id ?? 0 // the store's stand-in for no store
      const time = r.call_start_time
      const id = r.call_log_id
      const mobile = mobileOf(r.caller_number)
      const values = CALL_VALUES.map((c) => r[c] ?? null)
      const old = find.get(id) as StoredCall | null
      if (!old) {
        // a new call always takes the run's position, visible or not: a partner whose copy came
        // from another replica may hold it (changes.md 5), and a delete it never needed is harmless
        unmarkGone(this.client, id)
        insert.run(websiteId, time, id, mobile, ...values, this.seq)
        this.touchCounts(websiteId, time)
        this.touchCaller(mobile, time, id)
      } else if (old.website_id === websiteId && old.call_start_time === time) {
        if (CALL_VALUES.every((c, i) => old[c] === values[i])) continue
        update.run(mobile, ...values, shownDiffers(old, values) && this.shown(websiteId) ? 1 : 0, id)
        // a recording or CRM field filled in later changes no count; a corrected substatus does
        if (old.substatus !== r.substatus || old.duration_seconds !== r.duration_seconds) this.touchCounts(websiteId, time)
        if (old.mobile !== mobile) {
          this.touchCaller(old.mobile, time, id)
          this.touchCaller(mobile, time, id)
        }
      } else {
        remove.run(id)
        insert.run(websiteId, time, id, mobile, ...values, this.shown(old.website_id) || this.shown(websiteId) ? this.seq : old.feed_seq)
        this.touchCounts(old.website_id, old.call_start_time)
        this.touchCounts(websiteId, time)
        this.touchCaller(old.mobile, old.call_start_time, id)
        this.touchCaller(mobile, time, id)
      }
      changed++
    }
    return changed
  }

  /**
   * Verification's whole pass over the master's calls: `seen` notes each call_log_id as the
   * rows pass, `finish` removes the store's calls the master no longer has.
   */
  sweep(): { seen(rows: CallRow[]): void; finish(): number } {
    this.client.run('CREATE TEMP TABLE IF NOT EXISTS master_call_ids (call_log_id TEXT PRIMARY KEY) WITHOUT ROWID')
    this.client.run('DELETE FROM temp.master_call_ids')
    const note = this.client.query('INSERT OR IGNORE INTO temp.master_call_ids VALUES (?)')
    return {
      seen: (rows) => {
        for (const r of rows) note.run(r.call_log_id)
      },
      finish: () => {
        const gone = this.client
          .query<{ call_log_id: string }, []>('SELECT call_log_id FROM calls WHERE call_log_id NOT IN (SELECT call_log_id FROM temp.master_call_ids)')
          .all()
        this.client.run('DELETE FROM temp.master_call_ids')
        return this.removeCalls(gone.map((r) => r.call_log_id))
      },
    }
  }

  /** Calls the master no longer has: removed, their deletes kept in the feed. */
  removeCalls(callLogIds: string[]): number {
    const find = this.client.query('SELECT website_id, call_start_time, mobile, feed_seq FROM calls WHERE call_log_id = ?')
    const remove = this.client.query('DELETE FROM calls WHERE call_log_id = ?')
    let removed = 0
    for (const id of callLogIds) {
      const old = find.get(id) as { website_id: number; call_start_time: string; mobile: string; feed_seq: number } | null
      if (!old) continue
      remove.run(id)
      markGone(this.client, id, this.shown(old.website_id) ? this.seq : old.feed_seq)
      this.touchCounts(old.website_id, old.call_start_time)
      this.touchCaller(old.mobile, old.call_start_time, id)
      removed++
    }
    return removed
  }

  private touchCounts(websiteId: number, time: string): void {
    if (websiteId !== 0) this.days.add(`${websiteId}|${time.slice(0, 10)}`)
    this.minutes.add(time.slice(0, 16))
  }

  private touchCaller(mobile: string, time: string, callLogId: string): void {
    const place = placeOf(time, callLogId)
    const earliest = this.callers.get(mobile)
    if (earliest === undefined || place < earliest) this.callers.set(mobile, place)
  }

  /** The derived rows this run's rows touched, each table through its module; then a second pass starts afresh. */
  refresh(): void {
    // the stores were derived when the run's Changes began, after the small tables: they hold still since
    moveCallsOfChangedStores(this.client, this.facesBefore, this.facesNow, this.seq)
    this.step('derived:feed positions of changed stores')
    // a store that turned visible or invisible changes the all-stores minute counts wherever it has calls
    for (const id of storesThatTurned(this.facesBefore, this.facesNow)) for (const minute of minutesOfStore(this.client, id)) this.minutes.add(minute)
    this.step('derived:stores')
    refreshMetricTotals(this.client, this.metricStores)
    this.step('derived:metrics')
    refreshCallDays(this.client, this.days)
    this.step('derived:call_days')
    refreshCallMinutes(this.client, this.minutes)
    this.step('derived:call_minutes')
    renumberCallers(this.client, this.callers, this.seq)
    this.step('derived:callers')
    deriveProducts(this.client)
    for (const touched of [this.days, this.minutes, this.callers, this.metricStores]) touched.clear()
    this.facesBefore = this.facesNow
  }
}

// The fields a call record shows of its stored values: blank and NULL show alike (fieldRules.ts).
const SHOWN_AS_NULL_WHEN_BLANK = new Set(['recording_url', 'crm_lead_id'])
function shownDiffers(old: StoredCall, values: (string | number | null)[]): boolean {
  return CALL_VALUES.some((c, i) => {
    if (old[c] === values[i]) return false
    return !(SHOWN_AS_NULL_WHEN_BLANK.has(c) && isShownBlank(old[c]) && isShownBlank(values[i]))
  })
}
