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
