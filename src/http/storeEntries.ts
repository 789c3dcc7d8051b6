// Store entries of the two lookups (spec 2.2): a storelookup for the calling
// integration plus the listing totals of the range (two seeks a store,
// store/listingFigures.ts). Each entry leaves as JSON text: what a store shows of
// itself (its storelookup for the integration, its name and place) is rendered
// once per data version, and only the range's figures are written per answer, as
// pieces of the answer's one join (answer.ts renderPieces).
import { perVersion } from '../store/snapshot'
import { addTotals, metricTotalsOf, type MetricTotals } from '../store/listingFigures'
import type { StoreRow } from '../store/directory'
import type { Store } from '../store/open'
import { renderPieces, type RenderedRows } from './answer'
import type { ApiDeps } from './context'
import type { DateRange } from './inputs'
import { Message } from './errors'
import type { StoreEntry } from './responses'

type Entry = typeof StoreEntry.static
type EmployeeEntry = Entry & { sap_code: string }

/** A store's own fields of an entry, as JSON text without braces, by integration and store (this data version's). */
const fragments = perVersion((_: Store) => new Map<number, string>())
/** Bounded: cleared when full (10,000 stores × a few integrations fit easily). */
const FRAGMENTS_LIMIT = 100_000

// an entry's fields after the store's own, up to its days_with_data
const WITH_DATA = ',"has_data":true,"message":"","days_with_data":'
const WITHOUT_DATA = `,"has_data":false,"message":${JSON.stringify(Message.noRecord)},"days_with_data":`

/**
 * The entries of several stores, in their order, as JSON text; with `withSapCode` each
 * starts with its sap_code (the employee lookup). `grand`, when given, sums their totals.
 */
export function storeEntries<E extends Entry | EmployeeEntry>(deps: ApiDeps, integrationId: number, stores: StoreRow[], range: DateRange, withSapCode: boolean, grand?: MetricTotals): RenderedRows<E> {
  const figures = metricTotalsOf(deps.db, stores.map((s) => s.website_id), range.from, range.to)
  const own = fragments(deps.db)
  return renderPieces(stores, (store, out, i) => {
    const key = (withSapCode ? -1 : 1) * (integrationId * 0x1_0000_0000 + store.website_id + 1)
    let fields = own.get(key)
    if (fields === undefined) {
      const shown = {
        ...(withSapCode ? { sap_code: store.sap_code } : {}),
        storelookup: deps.storelookup.seal(integrationId, store.website_id),
        dealership_name: store.dealership_name,
        city: store.city,
        state: store.state,
      }
      if (own.size >= FRAGMENTS_LIMIT) own.clear()
      own.set(key, (fields = JSON.stringify(shown).slice(1, -1)))
    }
    const { days, totals: t } = figures[i]
    if (grand) addTotals(grand, t)
    out.push('{', fields, days > 0 ? WITH_DATA : WITHOUT_DATA, days,
      ',"totals":{"total_search":', t.total_search, ',"website_clicks":', t.website_clicks, ',"call_clicks":', t.call_clicks,
      ',"direction_requests":', t.direction_requests, ',"business_bookings":', t.business_bookings, '}}')
  })
}
