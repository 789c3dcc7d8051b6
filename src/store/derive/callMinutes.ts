// call_minutes: calls of all visible stores per minute (minutes since 1970),
// with running totals over all time, for call history without a store filter
// (a total is two seeks; a page start, a binary search). The full load counts
// minutes in typed arrays as calls stream past (17 KB a day); an incremental
// run recounts the minutes it touched and shifts the totals in between by range.
import type { Database } from 'bun:sqlite'
import { int } from '../bound'
import { SUBSTATUS_CODES, type StoredValue } from '../callCodec'
import { COUNT_EXPRESSIONS } from '../callClasses'

/** A stored substatus code (callCodec.ts) → its slot among a minute's three counts. */
const SLOT_OF_CODE: Record<number, number> = { [SUBSTATUS_CODES.Answered]: 0, [SUBSTATUS_CODES.Missed]: 1, [SUBSTATUS_CODES.Offline]: 2 }

/** The minute (since 1970) of a start stored in seconds, rounded down also before 1970. */
export const minuteOf = (start: number) => Math.floor(start / 60)

/** The full load's side. */
export class MinuteCounts {
  // per day (since 1970), [answered, missed, offline] for each of its 1,440 minutes
  private days = new Map<number, Int32Array>()

  /**
   * A call as stored (callValues): its start and substatus. The codec has already read the
   * master's texts; counting from them again took 0.10–0.13 µs a call, from these 0.04.
   */
  add(start: StoredValue, substatus: StoredValue): void {
    const slot = typeof substatus === 'number' ? SLOT_OF_CODE[substatus] : undefined
    if (slot === undefined) return // not a call result the contract knows: counted nowhere, as the recount does
    if (typeof start !== 'number') return // nor a start that is no time (callCodec.ts): it falls in no range
    const minute = minuteOf(start)
    const day = Math.floor(minute / 1440)
    let counts = this.days.get(day)
    if (!counts) this.days.set(day, (counts = new Int32Array(1440 * 3)))
    counts[(minute - day * 1440) * 3 + slot]++
  }

  /** Writes every minute with calls, with its running totals; the table must be empty. */
  write(client: Database): void {
    const insert = client.query('INSERT INTO call_minutes (minute, answered, missed, offline, cum_answered, cum_missed, cum_offline) VALUES (?, ?, ?, ?, ?, ?, ?)')
    const sums = [0, 0, 0]
    for (const day of [...this.days.keys()].sort((a, b) => a - b)) {
      const counts = this.days.get(day)!
      for (let i = 0; i < 1440; i++) {
        const [a, m, o] = [counts[i * 3], counts[i * 3 + 1], counts[i * 3 + 2]]
        if (a + m + o === 0) continue
        sums[0] += a
        sums[1] += m
        sums[2] += o
        insert.run(day * 1440 + i, a, m, o, ...sums)
      }
    }
    this.days.clear()
  }
}

/** The minutes in which a store has calls: all move when it turns visible or invisible. */
export function minutesOfStore(client: Database, websiteId: number): number[] {
  const rows = client
    .query<{ m: number }, [number]>("SELECT DISTINCT (c.start - ((c.start % 60) + 60) % 60) / 60 AS m FROM calls c INDEXED BY calls_store WHERE c.website_id = ? AND typeof(c.start) = 'integer'")
    .all(websiteId)
  return rows.map((r) => r.m)
}

type Abc = { a: number; m: number; o: number }
const ZERO: Abc = { a: 0, m: 0, o: 0 }

/**
 * An incremental run's side: the touched minutes recounted from calls (in time
 * order, their stores' visibility brought up to date first), and the running
 * totals fixed. Rows between two touched minutes all move by the same amount,
 * so each gap is one range UPDATE.
 */
export function refreshCallMinutes(client: Database, touched: Set<number>): void {
  const minutes = [...touched].sort((a, b) => a - b)
  const counts = client.query('SELECT answered + 0 AS a, missed + 0 AS m, offline + 0 AS o FROM call_minutes WHERE minute = ?')
  const recount = client.query(`INSERT INTO call_minutes (minute, answered, missed, offline)
      SELECT ?1, ${COUNT_EXPRESSIONS.slice(0, 3).join(', ')}
      FROM calls c WHERE c.start >= ${int(1)} * 60 AND c.start < ${int(1)} * 60 + 60 AND c.visible = 1
      HAVING count(*) > 0`)
  const remove = client.query('DELETE FROM call_minutes WHERE minute = ?')
  const previous = client.query('SELECT cum_answered AS a, cum_missed AS m, cum_offline AS o FROM call_minutes WHERE minute < ? ORDER BY minute DESC LIMIT 1')
  const setCum = client.query('UPDATE call_minutes SET cum_answered = ? + answered, cum_missed = ? + missed, cum_offline = ? + offline WHERE minute = ?')
  const SHIFT = 'UPDATE call_minutes SET cum_answered = cum_answered + ?1, cum_missed = cum_missed + ?2, cum_offline = cum_offline + ?3 WHERE minute > ?4'
  const shiftBetween = client.query(`${SHIFT} AND minute < ?5`) // two statements: an "OR ?5 IS NULL" would defeat the key range
  const shiftToEnd = client.query(SHIFT)
  const delta: Abc = { a: 0, m: 0, o: 0 }
  for (let i = 0; i < minutes.length; i++) {
    const minute = minutes[i]
    const old = (counts.get(minute) as Abc | null) ?? ZERO
    remove.run(minute)
    recount.run(minute)
    const now = (counts.get(minute) as Abc | null) ?? ZERO
    delta.a += now.a - old.a
    delta.m += now.m - old.m
    delta.o += now.o - old.o
    const p = (previous.get(minute) as Abc | null) ?? ZERO // already right: minutes go in order
    setCum.run(p.a, p.m, p.o, minute)
    if (!delta.a && !delta.m && !delta.o) continue
    if (i + 1 < minutes.length) shiftBetween.run(delta.a, delta.m, delta.o, minute, minutes[i + 1])
    else shiftToEnd.run(delta.a, delta.m, delta.o, minute)
  }
}
