// A partner's back end calling the API with the generated types
// (client/listing-api.d.ts) and openapi-fetch: request bodies and answers are
// checked by TypeScript. The README shows it; test/client.test.ts runs it.
import createClient from 'openapi-fetch'
import type { paths } from './listing-api'

/** A dealer's stores in January 2025: each store's storelookup, name and searches. */
export async function dealerStores(baseUrl: string, apiKey: string, sapCode: string, fetch?: (request: Request) => Promise<Response>) {
  const api = createClient<paths>({ baseUrl, headers: { 'X-API-KEY': apiKey }, fetch })
  const { data, error } = await api.POST('/listing/dealer', {
    body: { sap_code: sapCode, from_date: '2025-01-01', to_date: '2025-01-31' },
  })
  if (error) throw new Error(`${error.code} ${error.message}`) // every failure is { code, status: false, message }
  return data.data.map((store) => ({ storelookup: store.storelookup, name: store.dealership_name, searches: store.totals.total_search }))
}

/**
 * Keeping a copy of call history (changes.md): walk the change feed from the cursor you
 * stored last time (none the first time), apply each item, and store the new cursor with
 * the copy, in the same transaction as the items, so a crash never skips a change.
 */
export async function syncCopy(
  baseUrl: string,
  apiKey: string,
  copy: { cursor: string | null; calls: Map<string, object> },
  fetch?: (request: Request) => Promise<Response>,
) {
  const api = createClient<paths>({ baseUrl, headers: { 'X-API-KEY': apiKey }, fetch })
  for (;;) {
    const { data, error } = await api.POST('/listing/changes', { body: { cursor: copy.cursor, limit: 1000 } })
    if (error) throw new Error(`${error.code} ${error.message}`)
    for (const item of data.data) {
      if (item.change === 'upsert') copy.calls.set(item.call_log_id, item)
      else copy.calls.delete(item.call_log_id)
    }
    copy.cursor = data.next_cursor
    if (!data.has_more) return copy // up to date as of data.data_as_of; ask again later
  }
}
