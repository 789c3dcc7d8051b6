// An incremental run's writes: changed listing rows and calls upserted by key,
// and the derived rows they touch brought up to date, each table through its
// own module in derive/: recounted where touched, totals rerun from the
// earliest touched key. A field filled in later (a recording, a CRM lead)
// touches nothing derived. Every call whose record or visibility changed takes
// the run's feed position (feed.ts).
import type { Database } from 'bun:sqlite'
import { refreshCallDays } from './derive/callDays'
import { callValues, dayText, STORED_CALL_COLUMNS, type StoredValue } from './callCodec'
import { CallTextIds } from './callTexts'
import { comparePlaces, placeAmongCalls, pruneCallerChanges, renumberCallers, type Place } from './derive/callers'
import { minuteOf, minutesOfStore, refreshCallMinutes } from './derive/callMinutes'
import { refreshMetricTotals } from './derive/metricTotals'
import { metricKey } from './listingFigures'
import { deriveProducts } from './derive/products'
import { deriveStores, isVisibleIn, markCallsVisible, STORE_VISIBLE_SQL, storeFaces, storesThatTurned, type StoreFaces } from './derive/stores'
import { isShownBlank } from './fieldRules'
import { markGone, moveCallsOfChangedStores, unmarkGone } from './feed'
import { METRIC_VALUES, type CallRow, type MetricRow } from './rows'

// a stored call's values in STORED_CALL_COLUMNS order, then its feed position
const [START, , WEBSITE, , DURATION, , , SUBSTATUS, , , , , MOBILE] = STORED_CALL_COLUMNS.map((_, i) => i)
const STORED = STORED_CALL_COLUMNS.join(', ')
// the values that are not the call's key (start, call_log_id)
const VALUES = STORED_CALL_COLUMNS.slice(2)

/** What is derived from the small tables, to derive again in a run that wrote them again. */
export interface Rederive {
  /** stores' visibility and names (stores, dealers) */
  stores: boolean
  /** products' images and ranks (products, product_images) */
  products: boolean
}

export class Changes {
  // what this run's rows touched, refreshed by refresh()
  private days = new Set<string>() // `${website_id}|${day}`
  private minutes = new Set<number>()
  private callers = new Map<number, Place>() // mobile → earliest touched place
  private added = new Map<number, number>() // mobile → calls added less removed, not yet in its total
  private metricStores = new Map<number, string>() // website_id → earliest changed date

  constructor(
    private client: Database,
    /** each store's visibility and face when the run began (derive/stores.ts) */
    private facesBefore: StoreFaces,
    /** this run's feed position */
    private seq: number,
    rederive: Rederive,
    private step: (name: string) => void,
  ) {
    // the small tables are in: derive the stores once for the run (when they were written
    // again); which are visible now decides which changed calls move in the feed. Stores not
    // derived again show the faces the run began with.
    if (rederive.stores) deriveStores(client)
    this.facesNow = rederive.stores ? storeFaces(client) : facesBefore
    this.productsToDerive = rederive.products
    this.texts = new CallTextIds(client)
  }

  /** the texts of calls as the run finds or adds them: a rolled-back run's ids go with it */
  private readonly texts: CallTextIds

  private readonly facesNow: StoreFaces
  /** once a run: a second pass (repairs) changes no product */
  private productsToDerive: boolean

  /**
   * A change to a call moves it in the feed when a partner's copy may hold it: its store is
   * visible, or was when the run began. A call that was never visible keeps its position.
   */
  private shown(websiteId: number): boolean {
    return isVisibleIn(this.facesNow, websiteId) || isVisibleIn(this.facesBefore, websiteId)
  }

  /** Upserts listing rows; returns how many changed. */
  metrics(rows: MetricRow[]): number {
    const upsert = this.client.query(`INSERT INTO metrics (k, website_id, metric_date, ${METRIC_VALUES.join(', ')})
      VALUES (${metricKey('?1', '?2')}, ?1, ?2, ${METRIC_VALUES.map((_, i) => `?${i + 3}`).join(', ')})
      ON CONFLICT (k) DO UPDATE SET ${METRIC_VALUES.map((c) => `${c} = excluded.${c}`).join(', ')}
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
    const find = this.client.query<StoredValue[], [string]>(`SELECT ${STORED}, feed_seq FROM calls WHERE call_log_id = ?`)
    const remove = this.client.query('DELETE FROM calls WHERE start = ? AND call_log_id = ?')
    const insertAt = this.client.query(`INSERT INTO calls (${STORED}, feed_seq, prev_calls_count, visible)
      VALUES (${STORED_CALL_COLUMNS.map((_, i) => `?${i + 1}`).join(', ')}, ?${STORED_CALL_COLUMNS.length + 1}, ?${STORED_CALL_COLUMNS.length + 2}, ${STORE_VISIBLE_SQL(`?${WEBSITE + 1}`)})`)
    // a call goes in at its caller's place as the stored calls before it number it: renumbering
    // then rewrites only the calls that come after it (each rewrite updates the call and three
    // of its indexes)
    const placeOf = placeAmongCalls(this.client, this.added)
    const insert = (values: StoredValue[], feedSeq: StoredValue): Pick<Place, 'before' | 'last'> => {
      const place = placeOf(values[MOBILE] as number, values[START] as number | string, values[1] as string)
      insertAt.run(...values, feedSeq, place.before)
      this.count(values, 1)
      return place
    }
    // a change no record shows (a blank recording becoming NULL) keeps the call's feed position
    const update = this.client.query(`UPDATE calls SET ${VALUES.map((c) => `${c} = ?`).join(', ')},
      feed_seq = iif(?, ${this.seq}, feed_seq) WHERE start = ? AND call_log_id = ?`)
    let changed = 0
    // by call_log_id, the unique index each row is looked up in: a batch then walks it in order
    for (const r of [...rows].sort((a, b) => (a.call_log_id < b.call_log_id ? -1 : 1))) {
      const values = callValues(r, this.texts)
      const id = r.call_log_id
      const old = find.values(id)[0] as StoredValue[] | undefined
      if (!old) {
        // a new call always takes the run's position, visible or not: a partner whose copy came
        // from another replica may hold it (changes.md 5), and a delete it never needed is harmless
        unmarkGone(this.client, id)
        const inserted = insert(values, this.seq)
        this.touchCounts(values)
        this.touchCaller(values, inserted)
      } else if (old[WEBSITE] === values[WEBSITE] && old[START] === values[START]) {
        if (values.every((v, i) => old[i] === v)) continue
        const websiteId = values[WEBSITE] as number
        update.run(...values.slice(2), shownDiffers(old, values) && this.shown(websiteId) ? 1 : 0, values[START], id)
        // a recording or CRM field filled in later changes no count; a corrected substatus does
        if (old[SUBSTATUS] !== values[SUBSTATUS] || old[DURATION] !== values[DURATION]) this.touchCounts(values)
        if (old[MOBILE] !== values[MOBILE]) {
          this.count(old, -1)
          this.count(values, 1)
          this.touchCaller(old)
          this.touchCaller(values)
        }
      } else {
        remove.run(old[START], id)
        this.count(old, -1)
        const moved = this.shown(old[WEBSITE] as number) || this.shown(values[WEBSITE] as number)
        const inserted = insert(values, moved ? this.seq : old[STORED_CALL_COLUMNS.length])
        this.touchCounts(old)
        this.touchCounts(values)
        this.touchCaller(old)
        this.touchCaller(values, inserted)
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
    const find = this.client.query<StoredValue[], [string]>(`SELECT ${STORED}, feed_seq FROM calls WHERE call_log_id = ?`)
    const remove = this.client.query('DELETE FROM calls WHERE start = ? AND call_log_id = ?')
    let removed = 0
    for (const id of callLogIds) {
      const old = find.values(id)[0] as StoredValue[] | undefined
      if (!old) continue
      remove.run(old[START], id)
      this.count(old, -1)
      markGone(this.client, id, this.shown(old[WEBSITE] as number) ? this.seq : (old[STORED_CALL_COLUMNS.length] as number))
      this.touchCounts(old)
      this.touchCaller(old)
      removed++
    }
    return removed
  }

  /** A stored call's store-day and minute: recounted at refresh (a start that is no time is counted nowhere). */
  private touchCounts(call: StoredValue[]): void {
    const start = call[START]
    if (typeof start !== 'number') return
    const websiteId = call[WEBSITE] as number
    if (websiteId !== 0) this.days.add(`${websiteId}|${dayText(start)}`)
    this.minutes.add(minuteOf(start))
  }

  /** A stored call went in (1) or out (-1): its caller's total, as placing a call reads it (derive/callers.ts placeAmongCalls). */
  private count(call: StoredValue[], n: 1 | -1): void {
    const mobile = call[MOBILE] as number
    this.added.set(mobile, (this.added.get(mobile) ?? 0) + n)
  }

  /** A stored call's caller: renumbered at refresh from its earliest touched place (`inserted`: the call went in there, numbered, derive/callers.ts Place). */
  private touchCaller(call: StoredValue[], inserted: Pick<Place, 'before' | 'last'> = {}): void {
    const place: Place = { start: call[START] as number | string, callLogId: call[1] as string, ...inserted }
    const mobile = call[MOBILE] as number
    const earliest = this.callers.get(mobile)
    if (earliest === undefined) this.callers.set(mobile, place)
    // touched again: whichever place is earlier, what follows it is no longer known to be nothing
    else this.callers.set(mobile, { ...(comparePlaces(place, earliest) < 0 ? place : earliest), last: false })
  }

  /** The derived rows this run's rows touched, each table through its module; then a second pass starts afresh. */
  refresh(): void {
    // the stores were derived when the run's Changes began, after the small tables: they hold still since
    moveCallsOfChangedStores(this.client, this.facesBefore, this.facesNow, this.seq)
    this.step('derived:feed positions of changed stores')
    // a store that turned visible or invisible: its calls say so, and the all-stores minute counts change wherever it has calls
    const turned = storesThatTurned(this.facesBefore, this.facesNow)
    markCallsVisible(this.client, turned)
    for (const id of turned) for (const minute of minutesOfStore(this.client, id)) this.minutes.add(minute)
    this.step('derived:stores')
    refreshMetricTotals(this.client, this.metricStores)
    this.step('derived:metrics')
    refreshCallDays(this.client, this.days)
    this.step('derived:call_days')
    refreshCallMinutes(this.client, this.minutes)
    this.step('derived:call_minutes')
    renumberCallers(this.client, this.callers, this.seq, this.added)
    pruneCallerChanges(this.client, this.seq)
    this.step('derived:callers')
    if (this.productsToDerive) deriveProducts(this.client)
    this.productsToDerive = false
    for (const touched of [this.days, this.minutes, this.callers, this.added, this.metricStores]) touched.clear()
    this.facesBefore = this.facesNow
  }
}

// The fields a call record shows of its stored values: blank and NULL show alike (fieldRules.ts).
const SHOWN_AS_NULL_WHEN_BLANK = new Set(['recording_url', 'crm_lead_id'].map((c) => STORED_CALL_COLUMNS.indexOf(c as never)))
function shownDiffers(old: StoredValue[], values: StoredValue[]): boolean {
  for (let i = 2; i < values.length; i++) {
    if (old[i] === values[i]) continue
    if (SHOWN_AS_NULL_WHEN_BLANK.has(i) && isShownBlank(old[i]) && isShownBlank(values[i])) continue
    return true
  }
  return false
}
