// The read store: a projection of the master (master-schema.sql) plus the
// derived columns and tables that let every request be answered by index seeks.
// Base columns are filled by sync's store-shaped rows (or the fixtures'); each
// derived table or column by its own module in store/derive/.
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

export const integrations = sqliteTable(
  'integrations',
  {
    id: integer('id').primaryKey(),
    name: text('name').notNull(),
    keySha256: text('key_sha256').notNull(),
    isActive: integer('is_active').notNull(),
    createdAt: text('created_at').notNull().default(''),
  },
  (t) => [uniqueIndex('integrations_key').on(t.keySha256)],
)

export const dealers = sqliteTable('dealers', {
  sapCode: text('sap_code').primaryKey(),
  dealerName: text('dealer_name'),
  isActive: integer('is_active').notNull(),
})

export const stores = sqliteTable(
  'stores',
  {
    websiteId: integer('website_id').primaryKey(),
    sapCode: text('sap_code').notNull(),
    storeName: text('store_name'),
    city: text('city'),
    district: text('district'),
    state: text('state'),
    country: text('country'),
    pincode: text('pincode'),
    isDeleted: integer('is_deleted').notNull(),
    // derived: not deleted and its dealer is active (master-contract §1)
    visible: integer('visible').notNull().default(0),
    // derived: store_name, else dealer_name, else the literal (master-contract §2)
    dealershipName: text('dealership_name').notNull().default(''),
  },
  (t) => [index('stores_sap').on(t.sapCode, t.websiteId)],
)

export const employees = sqliteTable('employees', {
  empCode: text('emp_code').primaryKey(),
  empName: text('emp_name').notNull(),
  salesOffice: text('sales_office').notNull(),
  role: text('role').notNull(),
  isActive: integer('is_active').notNull(),
})

export const employeeDealers = sqliteTable(
  'employee_dealers',
  { empCode: text('emp_code').notNull(), sapCode: text('sap_code').notNull() },
  (t) => [primaryKey({ columns: [t.empCode, t.sapCode] })],
)

const metricCols = {
  desktopSearch: integer('desktop_search_impressions').notNull(),
  mobileSearch: integer('mobile_search_impressions').notNull(),
  desktopMaps: integer('desktop_maps_impressions').notNull(),
  mobileMaps: integer('mobile_maps_impressions').notNull(),
  websiteClicks: integer('website_clicks').notNull(),
  callClicks: integer('call_clicks').notNull(),
  directionRequests: integer('direction_requests').notNull(),
  businessBookings: integer('business_bookings').notNull(),
}

// One row per store and day, in (store, date) order under one integer key
// (k, listingFigures.ts: the store and the day in one number), so a seek is
// SQLite's fastest, a rowid's. The cum_* columns are running totals within the
// store, inclusive of the row, and seq is the row's 1-based rank: a range total
// or a page start is two seeks, never a sum.
// metrics_day holds the running totals a second time in (day, store) order: the
// lookups of many stores over one range seek the same day in each, and there
// every store's row of that day lies on the same few pages, where in key order
// each store's lies on a page of its own (issue 12: a seek 6 µs → 1 µs at scale 1).
// Its first column is the day within the key (listingFigures.ts DAY_OF_KEY).
export const metrics = sqliteTable('metrics', {
  k: integer('k').primaryKey(),
  websiteId: integer('website_id').notNull(),
  metricDate: text('metric_date').notNull(),
  ...metricCols,
  seq: integer('seq').notNull().default(0),
  cumSearch: integer('cum_search').notNull().default(0),
  cumWebsiteClicks: integer('cum_website_clicks').notNull().default(0),
  cumCallClicks: integer('cum_call_clicks').notNull().default(0),
  cumDirectionRequests: integer('cum_direction_requests').notNull().default(0),
  cumBusinessBookings: integer('cum_business_bookings').notNull().default(0),
}, (t) => [
  index('metrics_day').on(sql.raw('(k % 8388608)'), t.websiteId, t.seq, t.cumSearch, t.cumWebsiteClicks, t.cumCallClicks, t.cumDirectionRequests, t.cumBusinessBookings),
])

// Texts that repeat from call to call (a store's did_number, the provider's event_type),
// each stored once: calls hold its id. Rows are only ever added, so an id names one text
// for the life of the store, and a serving worker keeps the ones it has read (callTexts.ts).
export const callTexts = sqliteTable(
  'call_texts',
  {
    id: integer('id').primaryKey(),
    text: text('text').notNull(),
  },
  (t) => [uniqueIndex('call_texts_text').on(t.text)],
)

/**
 * SQL: the first column of calls_mobile, a call's time bucket: its start in seconds shifted right
 * by 20 (about 12 days), and after every such bucket one for starts stored as text (callCodec.ts:
 * a start that is no time). It never decreases as (start, call_log_id) grows, so a caller's calls
 * in order are its entries of each bucket in turn (derive/callers.ts), and the calls of a day go
 * into the last bucket's few thousand pages. SQLite matches an index's expression by its text.
 */
export const CALL_BUCKET_BITS = 20
/** The text bucket: past any start >> CALL_BUCKET_BITS of a 64-bit integer (2^43 at most). */
export const TEXT_CALL_BUCKET = 2 ** 52
export const CALL_BUCKET_SQL = `iif(typeof(start) IN ('text', 'blob'), ${TEXT_CALL_BUCKET}, start >> ${CALL_BUCKET_BITS})`

// Every master call, visible or not (caller counts include them all), in time
// order: call history across stores is one range of this table. Stored compact
// (callCodec.ts): times as seconds, substatus and mobile as numbers, did_number and
// event_type as ids in call_texts. website_id 0 stands for a NULL website_id. The view
// calls_readable shows them as text.
export const calls = sqliteTable(
  'calls',
  {
    start: integer('start').notNull(), // call_start_time
    callLogId: text('call_log_id').notNull(),
    websiteId: integer('website_id').notNull(),
    callerNumber: text('caller_number').notNull(),
    durationSeconds: integer('duration_seconds').notNull(),
    didNumber: integer('did_number').notNull(), // call_texts.id
    eventType: integer('event_type').notNull(), // call_texts.id
    substatus: integer('substatus').notNull(),
    recordingUrl: text('recording_url'),
    crmLeadId: text('crm_lead_id'),
    crmSyncedAt: integer('crm_synced_at'), // seconds after start
    createdAt: integer('created_at').notNull(), // seconds after start
    // derived: the caller (the last 10 digits of the caller number, as a number), and calls
    // of that caller strictly before this one by (start, call_log_id). A caller's
    // lifetime total (its last call's prev_calls_count + 1) is kept in callers.
    mobile: integer('mobile').notNull(),
    prevCallsCount: integer('prev_calls_count').notNull().default(0),
    // derived: 1 while the call's store is visible (master-contract §1), so call history
    // across stores reads one range of this table, with no look-up of each row's store
    visible: integer('visible').notNull().default(0),
    // derived: the call's feed position (store/feed.ts): the sync that last changed
    // its record or its visibility; ties broken by call_log_id
    feedSeq: integer('feed_seq').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.start, t.callLogId] }),
    // every call again by store in time order, with all it shows: a call log page or a
    // store's call history is one range read of this index, never a seek per row
    index('calls_store').on(t.websiteId, t.start, t.callLogId, t.callerNumber, t.durationSeconds, t.didNumber, t.eventType, t.substatus,
      t.recordingUrl, t.crmLeadId, t.crmSyncedAt, t.createdAt, t.mobile, t.prevCallsCount),
    uniqueIndex('calls_call_log_id').on(t.callLogId),
    // a caller's calls in order with their positions, by time bucket first (CALL_BUCKET_SQL): sync
    // places and renumbers from the index alone, and a day's new calls go into the last bucket's
    // pages, not into one random page of the whole index each
    index('calls_mobile').on(sql.raw(`(${CALL_BUCKET_SQL})`), t.mobile, t.start, t.callLogId, t.prevCallsCount),
    // the change feed in position order: an answer is one range of this index (changes.md)
    index('calls_feed').on(t.feedSeq, t.callLogId),
  ],
)

// The change feed's sync runs: one row per run that committed, seq strictly
// growing (the master's clock at the snapshot, in seconds, bumped past the last).
export const feedSyncs = sqliteTable('feed_syncs', {
  seq: integer('seq').primaryKey(),
  masterNow: text('master_now').notNull(),
})

// Calls the master no longer has (a hard delete, outside master-contract §3 but
// not impossible): their delete stays in the feed as long as the store exists.
export const feedDeleted = sqliteTable(
  'feed_deleted',
  {
    callLogId: text('call_log_id').primaryKey(),
    feedSeq: integer('feed_seq').notNull(),
  },
  (t) => [index('feed_deleted_position').on(t.feedSeq, t.callLogId)],
)

// Per caller (mobile, as calls holds it): its lifetime calls, visible or not
// (master-contract §2). A page of calls reads each row's caller total here.
// Kept by store/derive/callers.ts with prev_calls_count: total = last place + 1.
export const callers = sqliteTable('callers', {
  mobile: integer('mobile').primaryKey(),
  total: integer('total').notNull(),
})

// The callers whose total each incremental run changed, with that total, by run
// (seq, the run's feed position), so a server can take in only what changed
// since it last read them all (store/callerTotals.ts). A run's entries go at the
// end of the key, as a log's do: a day's 47,000 changed callers write about 200
// pages, where an index of every caller by the run that last changed it (before
// migration 0012) moved each one's entry from a random page, 15,400 pages a day.
// Kept for a week of runs (derive/callers.ts); what it holds is complete for
// every run after meta's CALLER_CHANGES_FROM (a full load empties it).
export const callerChanges = sqliteTable(
  'caller_changes',
  {
    seq: integer('seq').notNull(),
    mobile: integer('mobile').notNull(),
    total: integer('total').notNull(),
  },
  (t) => [primaryKey({ columns: [t.seq, t.mobile] })],
)

// Per store and IST day: calls and seconds by substatus, with running totals
// within the store (inclusive). Totals of a store's range are two seeks; the
// day where page N starts is found without reading calls.
export const callDays = sqliteTable(
  'call_days',
  {
    websiteId: integer('website_id').notNull(),
    day: text('day').notNull(),
    answered: integer('answered').notNull(),
    missed: integer('missed').notNull(),
    offline: integer('offline').notNull(),
    secAnswered: integer('sec_answered').notNull(),
    secMissed: integer('sec_missed').notNull(),
    secOffline: integer('sec_offline').notNull(),
    cumAnswered: integer('cum_answered').notNull().default(0),
    cumMissed: integer('cum_missed').notNull().default(0),
    cumOffline: integer('cum_offline').notNull().default(0),
    cumSecAnswered: integer('cum_sec_answered').notNull().default(0),
    cumSecMissed: integer('cum_sec_missed').notNull().default(0),
    cumSecOffline: integer('cum_sec_offline').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.day] })],
)

// Calls of all visible stores per minute (minutes since 1970, as calls.start
// counts seconds), with running totals over all time. Call history without a
// store filter finds its total in two seeks and the minute where page N starts
// by a binary search over minutes (about 20 rowid seeks for two years). No index
// on the running totals: a store that turns visible or invisible shifts them for
// every later minute, and each index would multiply that rewrite.
export const callMinutes = sqliteTable('call_minutes', {
  minute: integer('minute').primaryKey(),
  answered: integer('answered').notNull(),
  missed: integer('missed').notNull(),
  offline: integer('offline').notNull(),
  cumAnswered: integer('cum_answered').notNull().default(0),
  cumMissed: integer('cum_missed').notNull().default(0),
  cumOffline: integer('cum_offline').notNull().default(0),
})

const FILTER_COLUMNS = ['color', 'finish', 'series', 'size', 'surface', 'productRange', 'texture'] as const

export const products = sqliteTable(
  'products',
  {
    id: integer('id').primaryKey(),
    sku: text('sku').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    color: text('color'),
    finish: text('finish'),
    series: text('series'),
    size: text('size'),
    surface: text('surface'),
    productRange: text('product_range'),
    texture: text('texture'),
    status: integer('status').notNull(),
    // derived: JSON array of image paths in display order
    images: text('images').notNull().default('[]'),
    // derived: 1-based rank among active products by id, so an unfiltered page is a seek
    activeSeq: integer('active_seq'),
  },
  (t) => [
    // one index per filter, active rows only, in id order, carrying the other
    // filter columns too: the most selective supplied filter drives the scan and
    // the others are checked inside the index, so a count with two filters never
    // reads a product row (1.2 ms → 0.17 ms at 20,000 products)
    ...FILTER_COLUMNS.map((key) => {
      const others = FILTER_COLUMNS.filter((k) => k !== key).map((k) => t[k])
      const name = key === 'productRange' ? 'products_range' : `products_${key}`
      return index(name).on(t[key], t.id, ...others).where(sql`status = 1`)
    }),
    uniqueIndex('products_active_seq').on(t.activeSeq),
  ],
)

export const productImages = sqliteTable(
  'product_images',
  {
    id: integer('id').primaryKey(),
    productId: integer('product_id').notNull(),
    imagePath: text('image_path').notNull(),
    sortOrder: integer('sort_order').notNull(),
  },
  (t) => [index('product_images_product').on(t.productId, t.sortOrder, t.id)],
)

// What sync keeps between runs: its watermarks and verification windows.
export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})

export const syncRuns = sqliteTable('sync_runs', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  startedAt: text('started_at').notNull(),
  finishedAt: text('finished_at'),
  ok: integer('ok'),
  error: text('error'),
  stats: text('stats'),
})
