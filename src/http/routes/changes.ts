// POST /listing/changes — the change feed (changes.md): upserts and deletes of
// calls in feed position order, after an opaque cursor.
import { Elysia, t } from 'elysia'
import { MAX_CURSOR_CHARS, type ChangesCursor } from '../../changesCursor'
import { feedItems, feedRows, feedState, runBefore, type FeedStart, type FeedState } from '../../store/feed'
import { readSnapshot } from '../../store/snapshot'
import { answer, okHead } from '../answer'
import { apiKeyDescription } from '../auth'
import { apiContext, type ApiDeps } from '../context'
import { ApiError, Message } from '../errors'
import { examples } from '../examples'
import { limitField, optionalString, pageOf, suppliedOrNull } from '../inputs'
import { Int, okFields, responses, routeOptions } from '../responses'
import { CallRecord } from './callHistory'

const DEFAULT_LIMIT = 500
const MAX_LIMIT = 1000
/**
 * A cursor from another replica resumes this far before that replica's run
 * before its position: runs are numbered by the master's clock in whole
 * seconds, bumped by one when two start in the same second. Resuming early
 * lists a few changes twice, which applying again leaves as they are.
 */
const FOREIGN_MARGIN_SECONDS = 60

const Body = t.Object({
  cursor: optionalString('cursor', '`next_cursor` of the previous answer, unmodified; omitted, null or "": from the beginning', MAX_CURSOR_CHARS, Message.invalidCursor),
  limit: limitField(DEFAULT_LIMIT, MAX_LIMIT, 'Items per answer'),
  api_key: optionalString('api_key', apiKeyDescription),
}, { title: 'ChangesRequest' })

const Upsert = t.Object({ change: t.Literal('upsert'), ...CallRecord.properties }, {
  title: 'ChangeUpsert',
  description: 'A call as it stands now: every field of a call record, as call history answers it',
})
const Delete = t.Object({ change: t.Literal('delete'), call_log_id: t.String() }, {
  title: 'ChangeDelete',
  description: 'A call no longer visible (its store deleted or gone, its dealer inactive, or the call gone): remove it from your copy',
})

const Ok = t.Object({
  ...okFields,
  user: t.String(),
  limit: Int({ description: 'The applied limit' }),
  returned: Int({ description: 'Items in `data`' }),
  has_more: t.Boolean({ description: "More changes follow this answer's last item right now: ask again with `next_cursor` at once" }),
  next_cursor: t.String({ description: 'Where the next walk starts; store it with your copy. With nothing returned it is the cursor you sent' }),
  data: t.Array(t.Union([Upsert, Delete]), { description: 'In feed order: a call changed again appears once, at its latest position, with its latest state' }),
}, { title: 'ChangesAnswer' })

/**
 * Where a cursor resumes in this store: just after its position when this store
 * issued it; else from the issuing replica's run before that position, which
 * every change the partner may lack reached the master after. `null`: the
 * cursor has seen a newer run than this store holds, which answers nothing
 * until it catches up rather than send older states.
 */
function startOf({ origin, head }: FeedState, cursor: ChangesCursor | null): FeedStart | null {
  if (cursor === null || cursor.after === null) return cursor !== null && cursor.head > head ? null : { fromSeq: 0 }
  if (cursor.head > head) return null
  if (cursor.origin === origin) return { after: cursor.after }
  return { fromSeq: Math.max(0, cursor.base - FOREIGN_MARGIN_SECONDS) }
}

export const changes = (deps: ApiDeps) =>
  new Elysia().use(apiContext(deps)).post(
    '/listing/changes',
    ({ body, integration, request, set }) =>
      readSnapshot(deps.db, () => {
        const { limit } = pageOf({ limit: body.limit }, DEFAULT_LIMIT, MAX_LIMIT)
        const given = suppliedOrNull(body.cursor)
        const cursor = given === null ? null : deps.changesCursors.open(given)
        if (given !== null && cursor === null) throw new ApiError(400, Message.invalidCursor)
        const state = feedState(deps.db)
        const start = startOf(state, cursor)
        // one more than asked: whether more follow is known without a count
        const rows = start === null ? [] : feedRows(deps.db, start, limit + 1)
        const hasMore = rows.length > limit
        if (hasMore) rows.length = limit
        const { origin, head } = state
        const last = rows.at(-1)
        const next = last
          ? deps.changesCursors.seal({ origin, after: { seq: last.feed_seq, callLogId: last.call_log_id }, base: runBefore(deps.db, last.feed_seq), head })
          : (given ?? deps.changesCursors.seal({ origin, after: null, base: 0, head }))
        return answer<typeof Ok.static>({ request, set }, {
          ...okHead(deps.db),
          user: integration.name,
          limit,
          returned: rows.length,
          has_more: hasMore,
          next_cursor: next,
          data: feedItems(deps.db, rows),
        })
      }),
    routeOptions(Body, responses(Ok, examples['/listing/changes']), {
      summary: 'Change feed of call history',
      tag: 'Call history',
      description:
        'What changed in call history since your last walk: upserts (a call as it stands now) and deletes (a call no longer visible), in feed order. Start without a cursor, apply each item to your copy, and ask again with `next_cursor` until `has_more` is false; store the last `next_cursor` and resume from it later. Your copy then equals call history, except `total_calls_from_caller`, which grows with every later call of the same caller and does not move a call in the feed. Cursors stay valid across syncs, restarts and replicas.',
    }),
  )
