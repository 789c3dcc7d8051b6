// What sync hands the read store: rows shaped as the store's own tables,
// named by the store's columns (src/sync maps the master's columns to these).
// Fields beyond a table's columns (a master id, updated_at) are ignored.
export type Value = string | number | null

/** The tables read whole every run, and the columns each is written with. */
export const SMALL_TABLES = {
  dealers: ['sap_code', 'dealer_name', 'is_active'],
  stores: ['website_id', 'sap_code', 'store_name', 'city', 'district', 'state', 'country', 'pincode', 'is_deleted'],
  employees: ['emp_code', 'emp_name', 'sales_office', 'role', 'is_active'],
  employee_dealers: ['emp_code', 'sap_code'],
  products: ['id', 'sku', 'name', 'description', 'color', 'finish', 'series', 'size', 'surface', 'product_range', 'texture', 'status'],
  product_images: ['id', 'product_id', 'image_path', 'sort_order'],
  integrations: ['id', 'name', 'key_sha256', 'is_active', 'created_at'],
} as const
export type SmallTable = keyof typeof SMALL_TABLES
export type SmallRow = Record<string, Value>

/** A listing row (spec 2.5), one per store and day. */
export interface MetricRow {
  website_id: number
  metric_date: string
  desktop_search_impressions: number
  mobile_search_impressions: number
  desktop_maps_impressions: number
  mobile_maps_impressions: number
  website_clicks: number
  call_clicks: number
  direction_requests: number
  business_bookings: number
}
export const METRIC_VALUES = [
  'desktop_search_impressions', 'mobile_search_impressions', 'desktop_maps_impressions', 'mobile_maps_impressions',
  'website_clicks', 'call_clicks', 'direction_requests', 'business_bookings',
] as const

/** A call (spec 2.1); website_id null when the master has none or an unknown one. */
export interface CallRow {
  call_log_id: string
  website_id: number | null
  call_start_time: string
  caller_number: string
  duration_seconds: number
  did_number: string
  event_type: string
  substatus: string
  recording_url: string | null
  crm_lead_id: string | null
  crm_synced_at: string | null
  created_at: string
}
/** A call's fields beyond its key (website_id, call_start_time, call_log_id) and what the store derives (mobile, positions). */
export const CALL_VALUES = ['caller_number', 'duration_seconds', 'did_number', 'event_type', 'substatus', 'recording_url', 'crm_lead_id', 'crm_synced_at', 'created_at'] as const

/** A whole store's worth of rows: what a full load takes (and the fixtures hand it). */
export type StoreRows = { [T in SmallTable]: SmallRow[] } & { metrics: MetricRow[]; calls: CallRow[] }
