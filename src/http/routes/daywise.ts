// POST /listing/daywise — step 2, listing figures per day (spec 4.4, decision 21).
import { Elysia, t } from 'elysia'
import { daywiseRows, metricTotals } from '../../store/listingFigures'
import { examples } from '../examples'
import { apiKeyDescription } from '../auth'
import { readSnapshot } from '../../store/snapshot'
import { apiContext, type ApiDeps } from '../context'
import { answer, okHead } from '../answer'
import { Message } from '../errors'
import { dateRangeFields, optionalString, dateRangeOf, pageFields, pageOf, pagingOf, storelookupField } from '../inputs'
import { DealerBlock, Int, MetricsObject, okFields, pagingFields, responses, routeOptions } from '../responses'
import { dealerBlock, resolveStorelookup } from '../storelookupInput'

const Body = t.Object({
  ...dateRangeFields,
  storelookup: storelookupField,
  ...pageFields(31, 366),
  api_key: optionalString('api_key', apiKeyDescription),
}, { title: 'DaywiseRequest' })

const DayRow = t.Object({
  performance_date: t.String({ examples: ['2025-01-15'] }),
  total_search: Int({ description: 'Sum of the four impression columns' }),
  website_clicks: Int(),
  call_clicks: Int(),
  direction_requests: Int(),
  business_bookings: Int(),
  desktop_search_impressions: Int(),
  mobile_search_impressions: Int(),
  desktop_maps_impressions: Int(),
  mobile_maps_impressions: Int(),
}, { title: 'DaywiseRow' })

const Ok = t.Object({
  ...okFields,
  message: t.String({ description: '"" or "No record found" when total is 0' }),
  dealer: DealerBlock,
  ...pagingFields('Days with figures in the range'),
  totals: MetricsObject,
  data: t.Array(DayRow),
}, { title: 'DaywiseAnswer' })

export const daywise = (deps: ApiDeps) =>
  new Elysia().use(apiContext(deps)).post(
    '/listing/daywise',
    ({ body, integration, request, set }) =>
      readSnapshot(deps.db, () => {
        const range = dateRangeOf(body)
        const page = pageOf(body, 31, 366)
        const store = resolveStorelookup(deps, integration.id, body.storelookup)
        const { days: total, totals } = metricTotals(deps.db, store.website_id, range.from, range.to)
        const data = page.offset < total ? daywiseRows(deps.db, store.website_id, range.from, range.to, page.limit, page.offset) : []
        return answer<typeof Ok.static>({ request, set }, {
          ...okHead(deps.db),
          message: total ? '' : Message.noRecord,
          dealer: dealerBlock(store, body.storelookup),
          ...pagingOf(total, page, data.length),
          totals,
          data,
        })
      }),
    routeOptions(Body, responses(Ok, examples['/listing/daywise']), {
      summary: 'Day-wise listing performance (step 2)',
      tag: 'Listing performance',
      description:
        'One row per day that has figures, ascending. `totals` cover the whole range, not just the page. A store without figures in the range is a 200 with `No record found`.',
    }),
  )
