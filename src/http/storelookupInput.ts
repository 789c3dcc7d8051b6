// A storelookup from a request → the visible store it names, or 400
// Invalid storelookup (edited, foreign integration, or no longer visible).
import { visibleStore, type StoreRow } from '../store/directory'
import type { ApiDeps } from './context'
import { ApiError, Message } from './errors'

export function resolveStorelookup(deps: ApiDeps, integrationId: number, token: string): StoreRow {
  const websiteId = deps.storelookup.open(integrationId, token)
  const store = websiteId === null ? null : visibleStore(deps.db, websiteId)
  if (!store) throw new ApiError(400, Message.invalidStorelookup)
  return store
}

/** The dealer block of step-2 responses (spec 2.4): echoes the request's storelookup (decision 23). */
export const dealerBlock = (store: StoreRow, storelookup: string) => ({
  storelookup,
  sap_code: store.sap_code,
  dealership_name: store.dealership_name,
  city: store.city,
  state: store.state,
})
