// Store entries of the two lookups (spec 2.2): a storelookup for the calling
// integration plus the listing totals of the range, one statement for all stores.
import { addTotals, metricTotalsOf, type MetricTotals } from '../store/listingFigures'
import type { StoreRow } from '../store/directory'
import type { ApiDeps } from './context'
import type { DateRange } from './inputs'
import { Message } from './errors'

/** The entries of several stores, in their order; grand (when given) sums their totals. */
export function storeEntries(deps: ApiDeps, integrationId: number, stores: StoreRow[], range: DateRange, grand?: MetricTotals) {
  const figures = metricTotalsOf(deps.db, stores.map((s) => s.website_id), range.from, range.to)
  return stores.map((store, i) => {
    const { days, totals } = figures[i]
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
  })
}
