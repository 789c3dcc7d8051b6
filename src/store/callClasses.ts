// Which calls a substatus filter selects (spec 4.1, decisions 12 and 22),
// declared once: the request values, the classes of calls they select, and
// from them the SQL, the counts and the call log's summary.
import { SUBSTATUS_CODES } from './callCodec'
import { minutesOf } from './fieldRules'

const SUBSTATUSES = ['Answered', 'Missed', 'Offline'] as const
type Substatus = (typeof SUBSTATUSES)[number]

/** Each class: the stored substatus values it holds. */
const CALL_CLASSES = {
  all: ['Answered', 'Missed', 'Offline'],
  answered: ['Answered'],
  missed: ['Missed'],
  offline: ['Offline'],
  missedOffline: ['Missed', 'Offline'],
} as const satisfies Record<string, readonly Substatus[]>
export type CallClass = keyof typeof CALL_CLASSES

/** The request's substatus values (decision 12) and the class each selects; absent means all. */
export const SUBSTATUS_FILTERS = { Answered: 'answered', Missed: 'missed', Offline: 'offline', connected: 'answered', missed: 'missedOffline' } as const
export type SubstatusFilter = keyof typeof SUBSTATUS_FILTERS
export const callClassOf = (value: SubstatusFilter | '' | null | undefined): CallClass => (value ? SUBSTATUS_FILTERS[value] : 'all')

const lower = (s: Substatus) => s.toLowerCase() as 'answered' | 'missed' | 'offline'

/** SQL over a bucket table (call_days, call_minutes) and over calls, for a class. */
export const classSql = (cls: CallClass) => {
  const values = CALL_CLASSES[cls]
  return {
    /** its running total */
    cum: values.map((s) => `cum_${lower(s)}`).join(' + '),
    /** its count in the bucket */
    n: values.map(lower).join(' + '),
    /** the condition on c.substatus, as stored (none for all) */
    where: cls === 'all' ? '' : `AND c.substatus IN (${values.map((s) => SUBSTATUS_CODES[s]).join(', ')})`,
  }
}

/** SQL: calls and their seconds by substatus, over calls aliased `c`, one expression per column of COUNT_COLUMNS. */
export const COUNT_EXPRESSIONS = [
  ...SUBSTATUSES.map((s) => `sum(c.substatus = ${SUBSTATUS_CODES[s]})`),
  ...SUBSTATUSES.map((s) => `sum(iif(c.substatus = ${SUBSTATUS_CODES[s]}, c.duration_seconds, 0))`),
]
export const COUNTS_SQL = COUNT_EXPRESSIONS.join(', ')
export const COUNT_COLUMNS = ['answered', 'missed', 'offline', 'sec_answered', 'sec_missed', 'sec_offline'] as const

/** Calls and their seconds by substatus. */
export interface Counts {
  answered: number
  missed: number
  offline: number
  secAnswered: number
  secMissed: number
  secOffline: number
}

export const countOf = (c: Counts, cls: CallClass) => CALL_CLASSES[cls].reduce((n, s) => n + c[lower(s)], 0)
const secondsOf = (c: Counts, cls: CallClass) =>
  CALL_CLASSES[cls].reduce((n, s) => n + c[`sec${s}` as 'secAnswered' | 'secMissed' | 'secOffline'], 0)

/** The call log's summary over a range, within the class asked for: connected is Answered, missed is Missed and Offline. */
export function summaryOf(c: Counts, cls: CallClass) {
  const selected: readonly Substatus[] = CALL_CLASSES[cls]
  const count = (other: CallClass) => CALL_CLASSES[other].reduce((n, s) => n + (selected.includes(s) ? c[lower(s)] : 0), 0)
  const connected = count('answered')
  const missed = count('missedOffline')
  return { total_calls: connected + missed, connected_calls: connected, missed_calls: missed, total_minutes: minutesOf(secondsOf(c, cls)) }
}
