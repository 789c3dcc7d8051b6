// POST /listing/dealer — step 1 by dealer code (spec 4.2, decision 17).
import { Elysia, t } from 'elysia'
import { storesOfDealer } from '../../store/directory'
import { examples } from '../examples'
import { apiKeyDescription } from '../auth'
import { readSnapshot } from '../../store/snapshot'
import { apiContext, type ApiDeps } from '../context'
import { answerRows, okHead } from '../answer'
import { Message } from '../errors'
import { dateRangeFields, optionalString, dateRangeOf, requiredString } from '../inputs'
import { Int, okFields, responses, routeOptions, StoreEntry } from '../responses'
import { storeEntries } from '../storeEntries'

const Body = t.Object({
  ...dateRangeFields,
  sap_code: requiredString('sap_code', 20, Message.sapCodeRequired, 'Dealer SAP code', 'SAP1001'),
  api_key: optionalString('api_key', apiKeyDescription),
}, { title: 'DealerLookupRequest' })

const Ok = t.Object({
  ...okFields,
  user: t.String(),
  sap_code: t.String(),
  from_date: t.String(),
  to_date: t.String(),
  returned: Int(),
  message: t.String({ description: '"" or "No record found" when the dealer has no visible store' }),
  data: t.Array(StoreEntry),
}, { title: 'DealerLookupAnswer' })

export const dealerLookup = (deps: ApiDeps) =>
  new Elysia().use(apiContext(deps)).post(
    '/listing/dealer',
    ({ body, integration, request, set }) =>
      readSnapshot(deps.db, () => {
        const range = dateRangeOf(body)
        // an unknown or inactive dealer is an empty list, not an error: a store is
        // visible only while its dealer is active, so such a dealer has none
        const stores = storesOfDealer(deps.db, body.sap_code)
        return answerRows<typeof Ok.static>({ request, set }, {
          ...okHead(deps.db),
          user: integration.name,
          sap_code: body.sap_code,
          from_date: range.from,
          to_date: range.to,
          returned: stores.length,
          message: stores.length ? '' : Message.noRecord,
        }, storeEntries(deps, integration.id, stores, range, false))
      }),
    routeOptions(Body, responses(Ok, examples['/listing/dealer']), {
      summary: 'Dealer lookup (step 1)',
      tag: 'Listing performance',
      description:
        "Every visible store of a dealer, by website_id, with a `storelookup` for step 2 and the listing totals of the range. Stores without figures are included with `has_data: false`.",
    }),
  )
