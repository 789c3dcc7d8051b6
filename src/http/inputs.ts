// Shared request field models (they validate, type and document at once) and
// the small normalisers every endpoint calls: date ranges, pages, substatus.
// Each model names its own 400 message; the first failing field in schema
// order wins, so schemas list dates first, then required codes, then the rest.
import { FormatRegistry } from '@sinclair/typebox'
import { t } from 'elysia'
import { SUBSTATUS_FILTERS, type SubstatusFilter } from '../store/callClasses'
import { ApiError, Message } from './errors'

// Elysia hands a schema's error callback the whole body as `found`
type Found = { found: unknown }
const field = (found: unknown, name: string) => (found as Record<string, unknown> | undefined)?.[name]
const isMissing = (v: unknown) => v === undefined || v === null || v === ''

// Elysia's own 'date' format accepts 30 February and other spellings;
// the contract wants YYYY-MM-DD naming a real calendar day (decision 7).
// Read character by character: it runs four times a request (the format check
// and the order check of both dates), and a regular expression with its match
// array cost a quarter of a microsecond each time.
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const digit = (value: string, i: number) => {
  const c = value.charCodeAt(i) - 48
  return c >= 0 && c <= 9 ? c : -1000
}
function isCalendarDay(value: string): boolean {
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return false // '-'
  const y = digit(value, 0) * 1000 + digit(value, 1) * 100 + digit(value, 2) * 10 + digit(value, 3)
  const mo = digit(value, 5) * 10 + digit(value, 6)
  const d = digit(value, 8) * 10 + digit(value, 9)
  if (y < 0 || mo < 1 || mo > 12 || d < 1) return false
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
  return d <= (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1])
}
FormatRegistry.Set('date', isCalendarDay)

const dateField = (name: 'from_date' | 'to_date', description: string) =>
  t.String({
    format: 'date',
    description,
    examples: [name === 'from_date' ? '2025-01-01' : '2025-01-31'],
    error: ({ found }: Found) => {
      const v = field(found, name)
      // "one or both dates missing" wins over a malformed other date
      if (isMissing(field(found, 'from_date')) || isMissing(field(found, 'to_date'))) return Message.datesRequired
      return typeof v === 'string' ? Message.dateFormat : `${name} must be a string`
    },
  })

export const dateRangeFields = {
  from_date: dateField('from_date', 'First day, YYYY-MM-DD (IST)'),
  to_date: dateField('to_date', 'Last day, YYYY-MM-DD (IST), inclusive of the whole day'),
}

function stringError(name: string, requiredMessage?: string, tooLongMessage?: string) {
  return ({ found }: Found) => {
    const v = field(found, name)
    if (requiredMessage && isMissing(v)) return requiredMessage
    if (typeof v !== 'string') return `${name} must be a string`
    return tooLongMessage ?? `${name} is too long`
  }
}

/** A required string such as sap_code on the dealer lookup. */
export const requiredString = (name: string, maxLength: number, requiredMessage: string, description: string, example: string) =>
  t.String({ minLength: 1, maxLength, description, examples: [example], error: stringError(name, requiredMessage) })

/** An optional string's value as supplied, or null when it was not: omitted, null or "" (decision 4). */
export const suppliedOrNull = <T>(v: T): Exclude<T, undefined | null | ''> | null => (isMissing(v) ? null : (v as Exclude<T, undefined | null | ''>))

/** An optional string: null and "" mean "not supplied" (decision 4). */
export const optionalString = (name: string, description: string, maxLength?: number, tooLongMessage?: string) =>
  t.Optional(
    t.Union([t.String(maxLength === undefined ? {} : { maxLength }), t.Null()], {
      description,
      error: stringError(name, undefined, tooLongMessage),
    }),
  )

export const storelookupField = t.String({
  minLength: 1,
  maxLength: 512,
  description: 'Store reference from the dealer or employee lookup, sent back exactly as received',
  examples: ['AX9-PibkpXVM8XOJjF8wW1KQOv83'],
  error: stringError('storelookup', Message.storelookupRequired, Message.invalidStorelookup),
})

export const substatusField = t.Optional(
  t.Union([...(Object.keys(SUBSTATUS_FILTERS) as SubstatusFilter[]).map((s) => t.Literal(s)), t.Literal(''), t.Null()], {
    description: '`Answered`, `Missed`, `Offline`; `connected` = Answered; `missed` = Missed and Offline',
    error: ({ found }: Found) =>
      typeof field(found, 'substatus') === 'string' ? Message.invalidSubstatus : 'substatus must be a string',
  }),
)

// decision 5: a JSON integer or a string of decimal digits, at least 1.
// t.Number, not t.Integer: Elysia coerces t.Integer from sloppy strings ("1.0", " 1").
const positiveInteger = (name: string, description: string) =>
  t.Optional(
    t.Union(
      [
        // no maximum: a huge limit is clamped, a huge page is past the end
        t.Number({ minimum: 1, multipleOf: 1 }),
        t.String({ pattern: '^(|0*[1-9][0-9]*)$' }),
        t.Null(),
      ],
      { description, error: `${name} must be a positive integer` },
    ),
  )

export const limitField = (defaultLimit: number, maxLimit: number, what = 'Rows per page') =>
  positiveInteger('limit', `${what}, default ${defaultLimit}, clamped to ${maxLimit}`)

export const pageFields = (defaultLimit: number, maxLimit: number) => ({
  page: positiveInteger('page', '1-based page number, default 1'),
  limit: limitField(defaultLimit, maxLimit),
})

export interface Page {
  page: number
  limit: number
  offset: number
}

type IntInput = number | string | null | undefined
const toInt = (v: IntInput, fallback: number) => (isMissing(v) ? fallback : Number(v))

export function pageOf(input: { page?: IntInput; limit?: IntInput }, defaultLimit: number, maxLimit: number): Page {
  const page = toInt(input.page, 1)
  const limit = Math.min(toInt(input.limit, defaultLimit), maxLimit)
  return { page, limit, offset: (page - 1) * limit }
}

/** The paging fields of an answer, named and ordered as day-wise, call log and products send them (spec 2.4-2.6). */
export function pagingOf(total: number, { page, limit }: Page, returned: number) {
  const totalPages = Math.ceil(total / limit)
  return { page, limit, returned, total, total_pages: totalPages, has_more: page < totalPages }
}

export interface DateRange {
  from: string
  to: string
  /** first and last instant of the range, as stored DATETIME text */
  fromTime: string
  toTime: string
}

/**
 * The cross-field date rule, run as a route's transform hook: after the key
 * check but before schema validation, so a reversed range is reported ahead of
 * other fields, like every other date problem (dates come first in each schema).
 */
export function checkDateOrder({ body }: { body: unknown }): void {
  const { from_date: from, to_date: to } = body as Record<string, unknown>
  if (typeof from === 'string' && typeof to === 'string' && isCalendarDay(from) && isCalendarDay(to) && from > to) {
    throw new ApiError(400, Message.dateOrder)
  }
}

/** The date range of a validated body. */
export function dateRangeOf(input: { from_date: string; to_date: string }): DateRange {
  const { from_date: from, to_date: to } = input
  return { from, to, fromTime: `${from} 00:00:00`, toTime: `${to} 23:59:59` }
}
