// call_days: per store and IST day, calls and seconds by substatus with running
// totals within the store, for the call log's summary and for store- or
// dealer-filtered call history. Built from the calls in one statement after a
// full load; an incremental run recounts the days it touched and reruns each
// store's totals from its earliest.
import type { Database } from 'bun:sqlite'
import { COUNT_COLUMNS, COUNT_EXPRESSIONS, COUNTS_SQL } from '../callClasses'
import { rerunStores, type RunningTotals } from './runningTotals'

type DayRow = Record<(typeof COUNT_COLUMNS)[number], number>

const CALL_DAY_TOTALS: RunningTotals<DayRow> = {
  table: 'call_days',
  key: 'day',
  read: COUNT_COLUMNS,
  increments: (r) => COUNT_COLUMNS.map((c) => r[c]),
  cums: COUNT_COLUMNS.map((c) => `cum_${c}`),
}

const CUMS = CALL_DAY_TOTALS.cums.join(', ')

/** Every store's days, from the calls (website_id 0 is no store). */
export function buildCallDays(client: Database): void {
  client.run('DELETE FROM call_days')
  client.run(`INSERT INTO call_days (website_id, day, ${COUNT_COLUMNS.join(', ')}, ${CUMS})
    SELECT website_id, day, ${COUNT_COLUMNS.join(', ')}, ${COUNT_COLUMNS.map((c) => `sum(${c}) OVER win`).join(', ')}
    FROM (SELECT c.website_id, substr(c.call_start_time, 1, 10) AS day, ${COUNT_EXPRESSIONS.map((sql, i) => `${sql} AS ${COUNT_COLUMNS[i]}`).join(', ')}
      FROM calls c WHERE c.website_id <> 0 GROUP BY 1, 2)
    WINDOW win AS (PARTITION BY website_id ORDER BY day)`)
}

/** The days an incremental run touched (`${website_id}|${day}`): recounted, then totals rerun from each store's earliest. */
export function refreshCallDays(client: Database, touched: Set<string>): void {
  const remove = client.query('DELETE FROM call_days WHERE website_id = ? AND day = ?')
  const recount = client.query(`INSERT INTO call_days (website_id, day, ${COUNT_COLUMNS.join(', ')})
    SELECT c.website_id, ?2, ${COUNTS_SQL} FROM calls c
    WHERE c.website_id = ?1 AND c.call_start_time >= ?2 || ' 00:00:00' AND c.call_start_time <= ?2 || ' 23:59:59'
    GROUP BY c.website_id`)
  const earliest = new Map<number, string>()
  for (const key of [...touched].sort()) {
    const [idText, day] = key.split('|')
    const id = Number(idText)
    remove.run(id, day)
    recount.run(id, day)
    if (!earliest.has(id) || day < earliest.get(id)!) earliest.set(id, day)
  }
  rerunStores(client, CALL_DAY_TOTALS, earliest)
}
