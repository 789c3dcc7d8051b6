// Listing figures per store and day. Range totals come from the running
// totals (two seeks per store); a day-wise page reads only its own rows.
import type { Store } from './open'

export interface MetricTotals {
  total_search: number
  website_clicks: number
  call_clicks: number
  direction_requests: number
  business_bookings: number
}

export interface RangeTotals {
  days: number
  totals: MetricTotals
}

interface CumRow {
  seq: number
  s: number
  w: number
  c: number
  d: number
  b: number
}

const CUM = `SELECT seq, cum_search AS s, cum_website_clicks AS w, cum_call_clicks AS c,
  cum_direction_requests AS d, cum_business_bookings AS b FROM metrics WHERE website_id = ?`
const ZERO: CumRow = { seq: 0, s: 0, w: 0, c: 0, d: 0, b: 0 }

export const zeroTotals = (): MetricTotals => ({
  total_search: 0,
  website_clicks: 0,
  call_clicks: 0,
  direction_requests: 0,
  business_bookings: 0,
})

export function metricTotals(db: Store, websiteId: number, from: string, to: string): RangeTotals {
  const upTo =
    db.$client.query<CumRow, [number, string]>(`${CUM} AND metric_date <= ? ORDER BY metric_date DESC LIMIT 1`).get(websiteId, to) ?? ZERO
  const before =
    db.$client.query<CumRow, [number, string]>(`${CUM} AND metric_date < ? ORDER BY metric_date DESC LIMIT 1`).get(websiteId, from) ?? ZERO
  return {
    days: upTo.seq - before.seq,
    totals: {
      total_search: upTo.s - before.s,
      website_clicks: upTo.w - before.w,
      call_clicks: upTo.c - before.c,
      direction_requests: upTo.d - before.d,
      business_bookings: upTo.b - before.b,
    },
  }
}

export function addTotals(into: MetricTotals, add: MetricTotals): void {
  into.total_search += add.total_search
  into.website_clicks += add.website_clicks
  into.call_clicks += add.call_clicks
  into.direction_requests += add.direction_requests
  into.business_bookings += add.business_bookings
}

export interface DaywiseRow {
  performance_date: string
  total_search: number
  website_clicks: number
  call_clicks: number
  direction_requests: number
  business_bookings: number
  desktop_search_impressions: number
  mobile_search_impressions: number
  desktop_maps_impressions: number
  mobile_maps_impressions: number
}

// A store has at most one row a day, so the OFFSET here skips at most the
// days of the range that have figures (hundreds, not millions).
export function daywiseRows(db: Store, websiteId: number, from: string, to: string, limit: number, offset: number): DaywiseRow[] {
  return db.$client
    .query<DaywiseRow, [number, string, string, number, number]>(
      `SELECT metric_date AS performance_date,
         desktop_search_impressions + mobile_search_impressions + desktop_maps_impressions + mobile_maps_impressions AS total_search,
         website_clicks, call_clicks, direction_requests, business_bookings,
         desktop_search_impressions, mobile_search_impressions, desktop_maps_impressions, mobile_maps_impressions
       FROM metrics WHERE website_id = ? AND metric_date >= ? AND metric_date <= ?
       ORDER BY metric_date LIMIT ? OFFSET ?`,
    )
    .all(websiteId, from, to, limit, offset)
}
