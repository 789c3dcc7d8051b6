// POST /listing/calls — step 2, one store's calls (spec 4.5, decision 22).
import { Elysia, t } from 'elysia'
import { callClassOf, summaryOf } from '../../store/callClasses'
import { callSet } from '../../store/calls'
import { examples } from '../examples'
import { apiKeyDescription } from '../auth'
import { readSnapshot } from '../../store/snapshot'
import { apiContext, type ApiDeps } from '../context'
import { answer, okHead } from '../answer'
import { Message } from '../errors'
import { dateRangeFields, optionalString, dateRangeOf, pageFields, pageOf, pagingOf, storelookupField, substatusField } from '../inputs'
import { DealerBlock, Int, okFields, pagingFields, responses, routeOptions } from '../responses'
import { dealerBlock, resolveStorelookup } from '../storelookupInput'

const Body = t.Object({
  ...dateRangeFields,
  storelookup: storelookupField,
  substatus: substatusField,
  ...pageFields(50, 500),
  api_key: optionalString('api_key', apiKeyDescription),
}, { title: 'CallLogRequest' })

const CallRow = t.Object({
  call_log_id: t.String(),
  caller_number: t.String(),
  call_start_time: t.String(),
  call_duration_minutes: t.Number(),
  did_number: t.String(),
  call_event_type: t.String(),
  substatus: t.String(),
  total_calls_from_caller: Int(),
  prev_calls_count: Int(),
  recording_url: t.String({ description: '"" when no recording was captured yet' }),
}, { title: 'CallLogRow' })

const Ok = t.Object({
  ...okFields,
  message: t.String({ description: '"" or "No record found" when total is 0' }),
  dealer: DealerBlock,
  ...pagingFields(),
  summary: t.Object({
    total_calls: Int(),
    connected_calls: Int({ description: 'Answered' }),
    missed_calls: Int({ description: 'Missed and Offline together' }),
    total_minutes: t.Number({ description: 'round(sum(duration_seconds) / 60, 2) over the whole filtered range' }),
  }),
  data: t.Array(CallRow),
}, { title: 'CallLogAnswer' })

export const callLog = (deps: ApiDeps) =>
  new Elysia().use(apiContext(deps)).post(
    '/listing/calls',
    ({ body, integration, request, set }) =>
      readSnapshot(deps.db, () => {
        const range = dateRangeOf(body)
        const page = pageOf(body, 50, 500)
        const store = resolveStorelookup(deps, integration.id, body.storelookup)
        const cls = callClassOf(body.substatus)
        const calls = callSet(deps.db, { kind: 'store', websiteId: store.website_id }, range, cls)
        const data: (typeof CallRow.static)[] = calls.logPage(page.offset, page.limit)
        return answer<typeof Ok.static>({ request, set }, {
          ...okHead(deps.db),
          message: calls.total ? '' : Message.noRecord,
          dealer: dealerBlock(store, body.storelookup),
          ...pagingOf(calls.total, page, data.length),
          summary: summaryOf(calls.counts, cls),
          data,
        })
      }),
    routeOptions(Body, responses(Ok, examples['/listing/calls']), {
      summary: 'Call log of one store (step 2)',
      tag: 'Listing performance',
      description:
        'The calls of the store named by `storelookup`, oldest first. `summary` covers the whole range and respects `substatus`. A store without calls in the range is a 200 with `No record found`.',
    }),
  )
