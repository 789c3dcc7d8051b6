// POST /listing/listingtiles — call history across stores (spec 4.1, decisions 11-15).
import { Elysia, t } from 'elysia'
import { callClassOf } from '../../store/callClasses'
import { callHistoryPage, callRecords, scopeOf } from '../../store/calls'
import { dealerIsActive } from '../../store/directory'
import { examples } from '../examples'
import { apiKeyDescription } from '../auth'
import { readSnapshot } from '../../store/snapshot'
import { apiContext, type ApiDeps } from '../context'
import { answer, okHead } from '../answer'
import { ApiError, Message } from '../errors'
import { dateRangeFields, dateRangeOf, optionalString, pageFields, pageOf, pagingOf, substatusField, suppliedOrNull } from '../inputs'
import { resolveStorelookup } from '../storelookupInput'
import { Int, okFields, responsesWith404, routeOptions } from '../responses'

const Body = t.Object({
  ...dateRangeFields,
  sap_code: optionalString('sap_code', 'Dealer SAP code', 20),
  storelookup: optionalString('storelookup', 'Store reference from the dealer or employee lookup', 512, Message.invalidStorelookup),
  call_log_id: optionalString('call_log_id', 'Exact call id; still limited to the date range', 64),
  substatus: substatusField,
  ...pageFields(50, 500),
  api_key: optionalString('api_key', apiKeyDescription),
}, { title: 'CallHistoryRequest' })

export const CallRecord = t.Object({
  website_id: Int(),
  sap_code: t.String(),
  dealership_name: t.String(),
  city: t.Nullable(t.String()),
  district: t.Nullable(t.String()),
  state: t.Nullable(t.String()),
  country: t.Nullable(t.String()),
  pincode: t.Nullable(t.String()),
  call_log_id: t.String(),
  call_number_with_c_code: t.String(),
  mobile: t.String({ description: 'Last 10 digits of the caller number' }),
  call_start_time: t.String({ examples: ['2025-01-15 10:04:05'] }),
  call_duration_minutes: t.Number({ examples: [0.7] }),
  call_did_number: t.String(),
  call_event_type: t.String(),
  substatus: t.String({ examples: ['Answered'] }),
  call_recording_url: t.Nullable(t.String()),
  crm_lead_id: t.Nullable(t.String()),
  crm_synced_at: t.Nullable(t.String()),
  total_calls_from_caller: Int(),
  prev_calls_count: Int(),
  created_at: t.String(),
}, { title: 'CallRecord' })

const Ok = t.Object({
  ...okFields,
  user: t.String(),
  from_date: t.String(),
  to_date: t.String(),
  filters: t.Object({
    sap_code: t.Nullable(t.String()),
    call_log_id: t.Nullable(t.String()),
    substatus: t.Nullable(t.String()),
  }),
  paging: t.Object({
    total_records: Int(),
    total_pages: Int(),
    page: Int(),
    limit: Int(),
    returned: Int(),
    has_more: t.Boolean(),
  }),
  data: t.Array(CallRecord),
}, { title: 'CallHistoryAnswer' })


export const callHistory = (deps: ApiDeps) =>
  new Elysia().use(apiContext(deps)).post(
    '/listing/listingtiles',
    ({ body, integration, request, set }) =>
      readSnapshot(deps.db, () => {
        const range = dateRangeOf(body)
        const page = pageOf(body, 50, 500)
        const sapCode = suppliedOrNull(body.sap_code)
        const lookup = suppliedOrNull(body.storelookup)
        const callLogId = suppliedOrNull(body.call_log_id)
        const cls = callClassOf(body.substatus)
        // a bad storelookup is a 400, so it is checked before the dealer lookup's 404 (decision 2)
        const store = lookup === null ? null : resolveStorelookup(deps, integration.id, lookup)
        // decision 13: an unknown or inactive dealer is 404 before the no-record outcome
        if (sapCode !== null && !dealerIsActive(deps.db, sapCode)) throw new ApiError(404, Message.sapCodeNotFound)
        const { total, records } = callHistoryPage(deps.db, scopeOf(deps.db, store, sapCode), range, cls, callLogId, page)
        if (total === 0) throw new ApiError(404, Message.noRecord)
        const paging = pagingOf(total, page, records.length)
        if (page.page > paging.total_pages) throw new ApiError(404, Message.pageOutOfRange)
        return answer<typeof Ok.static>({ request, set }, {
          ...okHead(deps.db),
          user: integration.name,
          from_date: range.from,
          to_date: range.to,
          filters: { sap_code: sapCode, call_log_id: callLogId, substatus: suppliedOrNull(body.substatus) },
          paging: { total_records: total, total_pages: paging.total_pages, page: paging.page, limit: paging.limit, returned: paging.returned, has_more: paging.has_more },
          data: callRecords(deps.db, records),
        })
      }),
    routeOptions(Body, responsesWith404(Ok, examples['/listing/listingtiles'], {
        message: 'No record found',
        description: '`No record found` (nothing matched), `SAP code not found`, or `Page out of range`',
      }), {
      summary: 'Call history',
      tag: 'Call history',
      description:
        'Calls received by dealer showrooms in a date range, oldest first (then by call_log_id), filtered by dealer, store, call id and call result. A 404 `No record found` is the normal no-data outcome.',
    }),
  )
