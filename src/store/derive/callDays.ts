// call_days: per store and IST day, calls and seconds by substatus with running
// totals within the store, for the call log's summary and for store- or
// dealer-filtered call history. Built from the calls in one statement after a
// full load; an incremental run recounts the days it touched and reruns each
// store's totals from its earliest.
import type { Database } from 'bun:sqlite'
import { int, text } from '../bound'
import { secondsOf } from '../callCodec'
import { COUNT_COLUMNS, COUNT_EXPRESSIONS, COUNTS_SQL } from '../callClasses'
import { rerunStores, type RunningTotals } from './runningTotals'

type DayRow = Record<(typeof COUNT_COLUMNS)[number], number>

const CALL_DAY_TOTALS: RunningTotals<DayRow> = {
  table: 'call_days',
  before: `website_id = ${int(1)} AND day < ${text(2)}`,
  from: `website_id = ${int(1)} AND day >= ${text(2)}`,
  order: 'day',
  id: ['website_id', 'day'],
  read: COUNT_COLUMNS,
  increments: (r) => COUNT_COLUMNS.map((c) => r[c]),
  cums: COUNT_COLUMNS.map((c) => `cum_${c}`),
}

const CUMS = CALL_DAY_TOTALS.cums.join(', ')

/** SQL: the day number (days since 1970) of a start stored in seconds, rounded down also before 1970. */
const DAY_NUMBER = '(c.start - ((c.start % 86400) + 86400) % 86400) / 86400'

/** Every store's days, from the calls by store (website_id 0 is no store; a start that is no time has no day). */
export function buildCallDays(client: Database): void {
  client.run('DELETE FROM call_days')
  client.run(`INSERT INTO call_days (website_id, day, ${COUNT_COLUMNS.join(', ')}, ${CUMS})
    SELECT website_id, date(d * 86400, 'unixepoch'), ${COUNT_COLUMNS.join(', ')}, ${COUNT_COLUMNS.map((c) => `sum(${c}) OVER win`).join(', ')}
    FROM (SELECT c.website_id, ${DAY_NUMBER} AS d, ${COUNT_EXPRESSIONS.map((sql, i) => `${sql} AS ${COUNT_COLUMNS[i]}`).join(', ')}
      FROM calls c INDEXED BY calls_store WHERE c.website_id <> 0 AND typeof(c.start) = 'integer' GROUP BY 1, 2)
    WINDOW win AS (PARTITION BY website_id ORDER BY d)`)
}

/** The days an incremental run touched (`${website_id}|${day}`): recounted, then totals rerun from each store's earliest. */
export function refreshCallDays(client: Database, touched: Set<string>): void {
  const remove = client.query('DELETE FROM call_days WHERE website_id = ? AND day = ?')
  const recount = client.query(`INSERT INTO call_days (website_id, day, ${COUNT_COLUMNS.join(', ')})
    SELECT c.website_id, ?2, ${COUNTS_SQL} FROM calls c INDEXED BY calls_store
    WHERE c.website_id = ${int(1)} AND c.start >= ${int(3)} AND c.start < ${int(3)} + 86400
    GROUP BY c.website_id`)
  const earliest = new Map<number, string>()
  for (const key of [...touched].sort()) {
    const [idText, day] = key.split('|')
    const id = Number(idText)
    remove.run(id, day)
    recount.run(id, day, secondsOf(`${day} 00:00:00`))
    if (!earliest.has(id) || day < earliest.get(id)!) earliest.set(id, day)
  }
  rerunStores(client, CALL_DAY_TOTALS, earliest)
}
