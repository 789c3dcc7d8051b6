// Store entries of the two lookups (spec 2.2): a storelookup for the calling
// integration plus the listing totals of the range, two seeks per store.
import { addTotals, metricTotals, type MetricTotals } from '../store/metrics'
import type { StoreRow } from '../store/directory'
import type { ApiDeps } from './context'
import type { DateRange } from './inputs'
import { Message } from './errors'

export function storeEntry(deps: ApiDeps, integrationId: number, store: StoreRow, range: DateRange, grand?: MetricTotals) {
  const { days, totals } = metricTotals(deps.db, store.website_id, range.from, range.to)
  if (grand) addTotals(grand, totals)
  return {
    storelookup: deps.storelookup.seal(integrationId, store.website_id),
    dealership_name: store.dealership_name,
    city: store.city,
    state: store.state,
    has_data: days > 0,
    message: days > 0 ? '' : Message.noRecord,
    days_with_data: days,
    totals,
  }
}

