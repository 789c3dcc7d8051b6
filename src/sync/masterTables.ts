// How the master's tables become the read store's (master-contract §2), in one
// table: each master table, the store table it fills, and for each store
// column the master column it comes from. Rows are selected under the store's
// names, so they arrive store-shaped (store/rows.ts).
import type { CallRow, MetricRow, SmallRow, SmallTable } from '../store/rows'

type Columns = Record<string, string> // store column → master column

const same = (...names: string[]): Columns => Object.fromEntries(names.map((n) => [n, n]))

export const SMALL_MASTER_TABLES: Record<string, { into: SmallTable; columns: Columns }> = {
  dealer_master: { into: 'dealers', columns: same('sap_code', 'dealer_name', 'is_active') },
  websites: { into: 'stores', columns: { website_id: 'id', ...same('sap_code', 'store_name', 'city', 'district', 'state', 'country', 'pincode', 'is_deleted') } },
  employees: { into: 'employees', columns: same('emp_code', 'emp_name', 'sales_office', 'role', 'is_active') },
  employee_dealers: { into: 'employee_dealers', columns: same('emp_code', 'sap_code') },
  products: { into: 'products', columns: same('id', 'sku', 'name', 'description', 'color', 'finish', 'series', 'size', 'surface', 'product_range', 'texture', 'status') },
  product_images: { into: 'product_images', columns: same('id', 'product_id', 'image_path', 'sort_order') },
  api_integrations: { into: 'integrations', columns: { ...same('id', 'name'), key_sha256: 'api_key_sha256', ...same('is_active', 'created_at') } },
}

export const LARGE_MASTER_TABLES = {
  listing_daily_metrics: {
    into: 'metrics',
    columns: same('website_id', 'metric_date', 'desktop_search_impressions', 'mobile_search_impressions', 'desktop_maps_impressions',
      'mobile_maps_impressions', 'website_clicks', 'call_clicks', 'direction_requests', 'business_bookings'),
  },
  call_logs: {
    into: 'calls',
    columns: same('call_log_id', 'website_id', 'caller_number', 'call_start_time', 'duration_seconds', 'did_number', 'event_type', 'substatus',
      'recording_url', 'crm_lead_id', 'crm_synced_at', 'created_at'),
  },
} as const
export type LargeTable = keyof typeof LARGE_MASTER_TABLES

/** What sync reads beside a large table's row: when it last changed (the watermark). */
type Tracked<Row> = Row & { updated_at: string }
export type LargeRow<T extends LargeTable> = Tracked<T extends 'call_logs' ? CallRow : MetricRow>

/** SELECT … FROM a master table, each column under its store name (the large tables with updated_at too). */
export function selectFrom(table: string): string {
  const spec = SMALL_MASTER_TABLES[table] ?? LARGE_MASTER_TABLES[table as LargeTable]
  const columns = Object.entries(spec.columns).map(([store, master]) => (store === master ? master : `${master} AS ${store}`))
  if (table in LARGE_MASTER_TABLES) columns.push('updated_at')
  return `SELECT ${columns.join(', ')} FROM ${table}`
}

export type { SmallRow }

/**
 * One statement: each small table's fingerprint at the master, in the run's snapshot, as
 * selectFrom reads it: its rows, and two sums over them of a CRC-32 of each row's text, of
 * the text and of it reversed (exact: MySQL sums integers as DECIMAL). A row's text is its
 * columns through QUOTE, which tells NULL from 'NULL' and keeps every comma inside quotes,
 * so two rows that differ anywhere differ in text. A change to one row moves both sums (a
 * CRC-32 changes with any change of up to 32 bits, and else but once in 2^32). Changes to
 * several rows leave both where they were only by a coincidence of their CRCs: two rows of
 * one length flipping one value in opposite directions, about once in 10^8 (a simulation of
 * MySQL's CRC32, in review). Sums, not an XOR: two rows trading equal-length values always
 * cancel out of an XOR of CRCs. MD5 instead of the CRCs cost the master 0.38 s a run at
 * production size, about what reading the tables whole costs; the CRCs 0.14 s.
 */
export function fingerprintsSql(tables: string[]): string {
  return tables
    .map((table) => {
      const text = `CONCAT_WS(',', ${Object.values(SMALL_MASTER_TABLES[table].columns).map((c) => `QUOTE(${c})`).join(', ')})`
      const sum = (of: string) => `CAST(coalesce(SUM(CRC32(${of})), 0) AS CHAR)`
      return `SELECT '${table}' AS name, COUNT(*) AS n, ${sum('t')} AS a, ${sum('REVERSE(t)')} AS b FROM (SELECT ${text} AS t FROM ${table}) x`
    })
    .join(' UNION ALL ')
}
