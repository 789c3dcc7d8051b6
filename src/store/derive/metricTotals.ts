// metrics.seq and the running totals of the five reported figures per store:
// a store's range totals are two seeks. The full load sums rows as they stream
// in key order; an incremental run reruns each changed store from its earliest
// changed date. Both add the same increments.
import type { Database } from 'bun:sqlite'
import { int, text } from '../bound'
import { totalSearchOf } from '../fieldRules'
import { METRIC_VALUES, type MetricRow } from '../rows'
import { firstKey, metricKey } from '../listingFigures'
import { Accumulator, rerunStores, type RunningTotals } from './runningTotals'

export const METRIC_TOTALS: RunningTotals<MetricRow> = {
  table: 'metrics',
  before: `k < ${metricKey(int(1), text(2))} AND k >= ${firstKey(int(1))}`,
  from: `k >= ${metricKey(int(1), text(2))} AND k < ${firstKey(`${int(1)} + 1`)}`,
  order: 'k',
  id: ['k'],
  read: METRIC_VALUES,
  increments: (r) => [1, totalSearchOf(r), r.website_clicks, r.call_clicks, r.direction_requests, r.business_bookings],
  cums: ['seq', 'cum_search', 'cum_website_clicks', 'cum_call_clicks', 'cum_direction_requests', 'cum_business_bookings'],
}

/** The full load's side: listing rows in (website_id, metric_date) order get their totals as they pass. */
export class MetricTotalsAsLoaded {
  private websiteId = -1
  private sums = new Accumulator(METRIC_TOTALS)

  totalsOf(row: MetricRow): number[] {
    if (row.website_id !== this.websiteId) {
      this.websiteId = row.website_id
      this.sums = new Accumulator(METRIC_TOTALS)
    }
    return this.sums.add(row)
  }
}

/** An incremental run's side: each store reruns from its earliest changed date. */
export function refreshMetricTotals(client: Database, earliest: Map<number, string>): void {
  rerunStores(client, METRIC_TOTALS, earliest)
}
