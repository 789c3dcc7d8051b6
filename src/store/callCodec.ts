// How a call is stored: compact, so that every call fits twice in the read
// store (in time order in `calls`, and by store in the covering index
// calls_store) within the size of the master's own table and indexes.
//   - call_start_time is `start`: whole seconds since 1970-01-01 00:00:00 of the
//     master's text, read as UTC (the text is IST; no time zone is involved
//     either way, and none ever shifts it);
//   - created_at and crm_synced_at are seconds after the start (mostly 0 or a
//     few minutes: one or two bytes instead of nineteen);
//   - substatus is 1, 2 or 3 (Answered, Missed, Offline);
//   - the caller's mobile (master-contract §2) is the number "1" followed by its
//     digits, so leading zeros and short numbers survive;
//   - did_number and event_type are ids of their texts in call_texts (callTexts.ts).
// A value that is not what the master's schema promises (a time that is no
// real instant, a substatus outside the three) is kept as its text: it reads
// back unchanged, sorts after every real time and falls in no date range.
import type { CallTextIds } from './callTexts'
import type { CallRow } from './rows'

// ---- times ----

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

// Howard Hinnant's days_from_civil / civil_from_days: the proleptic Gregorian calendar in integers
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`)
// "00" to "59", made once: a time of day is then three look-ups, not three new strings
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => pad2(i))

function civilText(days: number): string {
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0)
  return `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}`
}

const digitAt = (text: string, i: number) => {
  const c = text.charCodeAt(i) - 48
  return c >= 0 && c <= 9 ? c : -100_000
}

/** A real calendar day 'YYYY-MM-DD' → days since 1970 (dayTextOf's inverse). */
export const dayNumber = (day: string): number => secondsOf(`${day} 00:00:00`)! / 86_400

/** 'YYYY-MM-DD HH:MM:SS' (years 0001 to 9999) → seconds since 1970, or null when it is not such a time. */
export function secondsOf(text: string): number | null {
  if (text.length !== 19 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return null
  const y = digitAt(text, 0) * 1000 + digitAt(text, 1) * 100 + digitAt(text, 2) * 10 + digitAt(text, 3)
  const mo = digitAt(text, 5) * 10 + digitAt(text, 6)
  const d = digitAt(text, 8) * 10 + digitAt(text, 9)
  const h = digitAt(text, 11) * 10 + digitAt(text, 12)
  const mi = digitAt(text, 14) * 10 + digitAt(text, 15)
  const s = digitAt(text, 17) * 10 + digitAt(text, 18)
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return null
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
  if (d > (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1])) return null
  return daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s
}

/**
 * Days' texts remembered, each in the slot of its day number's low bits (4,096 days, about
 * eleven years, in about 160 KB when every slot is used). A page of call history mostly
 * stays on one day, but the change feed's rows are in call_log_id order, each on a day of
 * its own, and working a day's text out again (civilText) cost a time about 80 ns more than
 * one on the day before. A feed page's items and serialisation: 0.91–0.98 of the time with
 * only the last day remembered (docs/benchmarks.md, twenty-second session).
 */
const DAY_SLOTS = 4096
const slotDays = new Float64Array(DAY_SLOTS).fill(Number.NaN)
const slotTexts = new Array<string>(DAY_SLOTS).fill('')

/** Days since 1970 → 'YYYY-MM-DD' (dayNumber's inverse), remembered. */
export function dayTextOf(day: number): string {
  const slot = day & (DAY_SLOTS - 1)
  if (slotDays[slot] !== day) {
    slotDays[slot] = day
    slotTexts[slot] = civilText(day)
  }
  return slotTexts[slot]
}

/** Seconds since 1970 → 'YYYY-MM-DD HH:MM:SS'. */
export function timeText(seconds: number): string {
  const day = Math.floor(seconds / 86_400)
  const r = seconds - day * 86_400
  return `${dayTextOf(day)} ${TWO_DIGITS[Math.floor(r / 3600)]}:${TWO_DIGITS[Math.floor(r / 60) % 60]}:${TWO_DIGITS[r % 60]}`
}

/**
 * The times of a page of calls, written as one text and cut from it: `begin`, `add` each
 * time, `cut`, then `take` gives them back in the order added. A time made by timeText's template is a
 * rope of seven pieces, which JSON.stringify flattens into a string of its own; one cut from
 * a text is one piece. 75 times serialised in a loop: 4.0–4.8 µs against 8.2–9.5
 * (docs/benchmarks.md, thirty-third session). A serving worker makes one page at a time, so
 * one buffer serves every page.
 */
export class TimeTexts {
  private bytes = Buffer.alloc(19 * 128)
  private count = 0
  private all = ''
  private taken = 0

  /** Starts a page: what an earlier page added and never took (it failed on the way) is dropped. */
  begin(): void {
    this.count = 0
  }

  /** A time (seconds since 1970, years 0001 to 9999: always 19 characters). */
  add(seconds: number): void {
    if ((this.count + 1) * 19 > this.bytes.length) {
      const wider = Buffer.alloc(this.bytes.length * 2)
      wider.set(this.bytes)
      this.bytes = wider
    }
    const day = Math.floor(seconds / 86_400)
    const date = dayTextOf(day)
    const b = this.bytes
    const at = this.count++ * 19
    for (let i = 0; i < 10; i++) b[at + i] = date.charCodeAt(i)
    const r = seconds - day * 86_400
    const h = Math.floor(r / 3600)
    const m = Math.floor(r / 60) % 60
    const s = r % 60
    b[at + 10] = 32
    b[at + 11] = 48 + Math.floor(h / 10)
    b[at + 12] = 48 + (h % 10)
    b[at + 13] = 58
    b[at + 14] = 48 + Math.floor(m / 10)
    b[at + 15] = 48 + (m % 10)
    b[at + 16] = 58
    b[at + 17] = 48 + Math.floor(s / 10)
    b[at + 18] = 48 + (s % 10)
  }

  /** The times added, as one text: `take` then cuts them from it, in the order added. */
  cut(): void {
    this.all = this.bytes.toString('latin1', 0, this.count * 19)
    this.taken = 0
  }

  /** The next time's text. */
  take(): string {
    const at = this.taken++ * 19
    return this.all.slice(at, at + 19)
  }
}

/** Seconds since 1970 → its day, 'YYYY-MM-DD'. */
export const dayText = (seconds: number): string => dayTextOf(Math.floor(seconds / 86_400))

/** A stored time (seconds, or the text of a value that is no time) as the master's text. */
export const timeOf = (stored: number | string): string => (typeof stored === 'number' ? timeText(stored) : stored)

/** A time as stored: seconds, or the text itself when it is not a time. */
export const storedTime = (text: string): number | string => secondsOf(text) ?? text

/** A time as stored after the call's start: seconds after it, or the text when either is not a time. */
export function storedAfter(text: string | null, start: number | string): number | string | null {
  if (text === null) return null
  const seconds = typeof start === 'number' ? secondsOf(text) : null
  return seconds === null ? text : seconds - (start as number)
}

/** A time stored after the start, as the master's text. */
export function timeAfter(stored: number | string | null, start: number | string): string | null {
  if (typeof stored === 'number') return timeText((start as number) + stored)
  return stored
}

// ---- substatus ----

export const SUBSTATUS_CODES = { Answered: 1, Missed: 2, Offline: 3 } as const
const SUBSTATUS_TEXTS = ['', 'Answered', 'Missed', 'Offline']

// the codes by text with no prototype: a text such as 'constructor' is no code, and stays text
const CODE_OF_TEXT: Record<string, number | undefined> = Object.assign(Object.create(null), SUBSTATUS_CODES)
export const storedSubstatus = (text: string): number | string => CODE_OF_TEXT[text] ?? text
export const substatusOf = (stored: number | string): string => (typeof stored === 'number' ? (SUBSTATUS_TEXTS[stored] ?? String(stored)) : stored)

// ---- callers ----

/** master-contract §2: the last 10 digits of the digits in the caller number. */
export const mobileOf = (callerNumber: string) => callerNumber.replace(/\D+/g, '').slice(-10)

/**
 * A caller's mobile as stored: "1" then its digits, as a number (at most 11 digits: exact). The
 * definition, with mobileOf: sync makes the stored mobile with mobileKeyOf, which the tests hold to these two.
 */
export const mobileKey = (mobile: string): number => Number(`1${mobile}`)

/**
 * A caller number's stored mobile, mobileKey(mobileOf(callerNumber)), in one pass from its end
 * with no string between: the last ten digits' value, after a 1. Sync's full load spent 7% of
 * its reading on the regular expression, the slice and the number's text.
 */
export function mobileKeyOf(callerNumber: string): number {
  let value = 0
  let place = 1
  for (let i = callerNumber.length - 1; i >= 0 && place < 1e10; i--) {
    const d = callerNumber.charCodeAt(i) - 48
    if (d < 0 || d > 9) continue
    value += d * place
    place *= 10
  }
  return place + value
}

/** A stored mobile as its digits. */
export const mobileDigits = (key: number): string => String(key).slice(1)

/**
 * A call's mobile as its digits, from its caller number when that ends in ten digits
 * (they are then the mobile, mobileOf's last ten digits), else from the stored mobile.
 * Writing an 11-digit number as text was a 50-row page's costliest field after the
 * record's own JSON.
 */
export function mobileOfCall(callerNumber: string, key: number): string {
  const n = callerNumber.length
  if (n < 10) return mobileDigits(key)
  for (let i = n - 10; i < n; i++) {
    const c = callerNumber.charCodeAt(i)
    if (c < 48 || c > 57) return mobileDigits(key)
  }
  return callerNumber.slice(n - 10)
}

// ---- a whole call ----

/** The columns of `calls` in the order callValues gives them (the key, start and call_log_id, first). */
export const STORED_CALL_COLUMNS = [
  'start', 'call_log_id', 'website_id', 'caller_number', 'duration_seconds', 'did_number', 'event_type', 'substatus',
  'recording_url', 'crm_lead_id', 'crm_synced_at', 'created_at', 'mobile',
] as const

export type StoredValue = string | number | null

/** A master call as the values of STORED_CALL_COLUMNS; website_id 0 stands for none. */
export function callValues(r: CallRow, texts: CallTextIds): StoredValue[] {
  const start = storedTime(r.call_start_time)
  return [
    start, r.call_log_id, r.website_id ?? 0, r.caller_number, r.duration_seconds, texts.idOfStore(r.did_number, r.website_id ?? 0), texts.idOfFew(r.event_type), storedSubstatus(r.substatus),
    r.recording_url ?? null, r.crm_lead_id ?? null, storedAfter(r.crm_synced_at ?? null, start), storedAfter(r.created_at, start)!, mobileKeyOf(r.caller_number),
  ]
}

// ---- the same in SQL, for the readable view and for sync's day and minute keys ----

/** SQL: a stored time column as the master's text. */
export const timeSql = (column: string) => `iif(typeof(${column}) = 'integer', datetime(${column}, 'unixepoch'), ${column})`
/** SQL: a time stored after `start` as the master's text (NULL stays NULL). */
export const timeAfterSql = (column: string, start: string) =>
  `iif(typeof(${column}) = 'integer', datetime(${start} + ${column}, 'unixepoch'), ${column})`
/** SQL: a stored substatus as its text. */
export const substatusSql = (column: string) =>
  `CASE ${column} ${Object.entries(SUBSTATUS_CODES).map(([text, code]) => `WHEN ${code} THEN '${text}'`).join(' ')} ELSE ${column} END`
/** SQL: the stored mobile as its digits. */
export const mobileSql = (column: string) => `substr(${column}, 2)`
