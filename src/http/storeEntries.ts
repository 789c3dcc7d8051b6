// Store entries of the two lookups (spec 2.2): a storelookup for the calling
// integration plus the listing totals of the range (two seeks a store,
// store/listingFigures.ts). Each entry leaves as JSON bytes: what a store shows of
// itself (its storelookup for the integration, its name and place) is rendered
// once per data version, and only the range's figures are written per answer
// (answer.ts answerRows).
import { perVersion } from '../store/snapshot'
import { addTotals, metricTotalsOf, type MetricTotals } from '../store/listingFigures'
import type { StoreRow } from '../store/directory'
import type { Store } from '../store/open'
import { rowsOf, type WrittenRows } from './answer'
import { utf8, type JsonBytes } from './jsonBytes'
import type { ApiDeps } from './context'
import type { DateRange } from './inputs'
import { Message } from './errors'
import type { StoreEntry } from './responses'

type Entry = typeof StoreEntry.static
type EmployeeEntry = Entry & { sap_code: string }

/** A store's own fields of an entry, as JSON without its closing brace, by integration and store (this data version's). */
const fragments = perVersion((_: Store) => new Map<number, Uint8Array>())
/** Bounded: cleared when full (10,000 stores × a few integrations fit easily). */
const FRAGMENTS_LIMIT = 100_000

// an entry's fields after the store's own, up to its days_with_data, and the totals' names
const WITH_DATA = utf8(',"has_data":true,"message":"","days_with_data":')
const WITHOUT_DATA = utf8(`,"has_data":false,"message":${JSON.stringify(Message.noRecord)},"days_with_data":`)
const TOTAL_SEARCH = utf8(',"totals":{"total_search":')
const WEBSITE_CLICKS = utf8(',"website_clicks":')
const CALL_CLICKS = utf8(',"call_clicks":')
const DIRECTION_REQUESTS = utf8(',"direction_requests":')
const BUSINESS_BOOKINGS = utf8(',"business_bookings":')
const END = utf8('}}')

/**
 * The entries of several stores, in their order, as JSON; with `withSapCode` each
 * starts with its sap_code (the employee lookup). `grand`, when given, sums their
 * totals now, before the answer's head is written.
 */
export function storeEntries<E extends Entry | EmployeeEntry>(deps: ApiDeps, integrationId: number, stores: StoreRow[], range: DateRange, withSapCode: boolean, grand?: MetricTotals): WrittenRows<E> {
  const figures = metricTotalsOf(deps.db, stores.map((s) => s.website_id), range.from, range.to)
  if (grand) for (const f of figures) addTotals(grand, f.totals)
  const own = fragments(deps.db)
  const ownFields = (store: StoreRow): Uint8Array => {
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
      own.set(key, (fields = utf8(JSON.stringify(shown).slice(0, -1))))
    }
    return fields
  }
  return rowsOf(stores, (store, out: JsonBytes, i) => {
    const { days, totals: t } = figures[i]
    out.bytes(ownFields(store))
    out.bytes(days > 0 ? WITH_DATA : WITHOUT_DATA)
    out.number(days)
    out.bytes(TOTAL_SEARCH)
    out.number(t.total_search)
    out.bytes(WEBSITE_CLICKS)
    out.number(t.website_clicks)
    out.bytes(CALL_CLICKS)
    out.number(t.call_clicks)
    out.bytes(DIRECTION_REQUESTS)
    out.number(t.direction_requests)
    out.bytes(BUSINESS_BOOKINGS)
    out.number(t.business_bookings)
    out.bytes(END)
  })
}
