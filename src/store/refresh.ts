// Recomputes the derived columns and tables of the read store from its base
// rows: store visibility and names, running totals, caller counts, call
// buckets, product images. Runs inside the caller's transaction.
import type { Database } from 'bun:sqlite'

const BLANK = `' ' || char(9, 10, 13)`

export function refreshAll(client: Database): void {
  const run = (sql: string) => client.run(sql)

  refreshStores(client)

  run(`UPDATE metrics SET seq = w.seq, cum_search = w.cs, cum_website_clicks = w.cw, cum_call_clicks = w.cc,
      cum_direction_requests = w.cd, cum_business_bookings = w.cb
    FROM (SELECT website_id, metric_date,
        row_number() OVER win AS seq,
        sum(desktop_search_impressions + mobile_search_impressions + desktop_maps_impressions + mobile_maps_impressions) OVER win AS cs,
        sum(website_clicks) OVER win AS cw, sum(call_clicks) OVER win AS cc,
        sum(direction_requests) OVER win AS cd, sum(business_bookings) OVER win AS cb
      FROM metrics WINDOW win AS (PARTITION BY website_id ORDER BY metric_date)) w
    WHERE metrics.website_id = w.website_id AND metrics.metric_date = w.metric_date`)

  run(`UPDATE calls SET prev_calls_count = w.prev
    FROM (SELECT call_log_id, count(*) OVER (PARTITION BY mobile ORDER BY call_start_time, call_log_id) - 1 AS prev FROM calls) w
    WHERE calls.call_log_id = w.call_log_id AND calls.prev_calls_count <> w.prev`)
  rebuildCallAggregates(client)

  refreshProducts(client)
}

/**
 * call_days and call_minutes from the calls table, each in one
 * INSERT … SELECT that computes the running totals with a window as it writes
 * (stores must be refreshed first: call_minutes counts visible stores only).
 */
export function rebuildCallAggregates(client: Database): void {
  rebuildCallDays(client)
  rebuildCallMinutes(client)
}

export function rebuildCallDays(client: Database): void {
  const run = (sql: string) => client.run(sql)
  run('DELETE FROM call_days')
  run(`INSERT INTO call_days (website_id, day, answered, missed, offline, sec_answered, sec_missed, sec_offline,
      cum_answered, cum_missed, cum_offline, cum_sec_answered, cum_sec_missed, cum_sec_offline)
    SELECT website_id, day, a, m, o, sa, sm, so,
      sum(a) OVER win, sum(m) OVER win, sum(o) OVER win, sum(sa) OVER win, sum(sm) OVER win, sum(so) OVER win
    FROM (SELECT website_id, substr(call_start_time, 1, 10) AS day,
        sum(substatus = 'Answered') AS a, sum(substatus = 'Missed') AS m, sum(substatus = 'Offline') AS o,
        sum(iif(substatus = 'Answered', duration_seconds, 0)) AS sa, sum(iif(substatus = 'Missed', duration_seconds, 0)) AS sm,
        sum(iif(substatus = 'Offline', duration_seconds, 0)) AS so
      FROM calls WHERE website_id <> 0 GROUP BY 1, 2)
    WINDOW win AS (PARTITION BY website_id ORDER BY day)`)
}

/** call_minutes from the calls of visible stores, with running totals. */
export function rebuildCallMinutes(client: Database): void {
  const run = (sql: string) => client.run(sql)
  run('DELETE FROM call_minutes')
  run(`INSERT INTO call_minutes (minute, answered, missed, offline, cum_answered, cum_missed, cum_offline)
    SELECT minute, a, m, o, sum(a) OVER win, sum(m) OVER win, sum(o) OVER win
    FROM (SELECT substr(c.call_start_time, 1, 16) AS minute,
        sum(c.substatus = 'Answered') AS a, sum(c.substatus = 'Missed') AS m, sum(c.substatus = 'Offline') AS o
      FROM calls c INDEXED BY calls_time JOIN stores s ON s.website_id = c.website_id AND s.visible = 1 GROUP BY 1)
    WINDOW win AS (ORDER BY minute)`)
}

/** Store visibility and dealership names: every store, from dealers (cheap: one row per store). */
export function refreshStores(client: Database): void {
  const run = (sql: string) => client.run(sql)
  // master-contract §1 (visibility) and §2 (dealership_name fallback)
  run(`UPDATE stores SET
    visible = (is_deleted = 0 AND EXISTS (SELECT 1 FROM dealers d WHERE d.sap_code = stores.sap_code AND d.is_active = 1)),
    dealership_name = CASE
      WHEN trim(coalesce(store_name, ''), ${BLANK}) <> '' THEN store_name
      WHEN trim(coalesce((SELECT dealer_name FROM dealers d WHERE d.sap_code = stores.sap_code), ''), ${BLANK}) <> ''
        THEN (SELECT dealer_name FROM dealers d WHERE d.sap_code = stores.sap_code)
      ELSE 'Dealer Name Not Available' END`)
}

/** Product image lists and the active rank: every product (cheap at catalogue size). */
export function refreshProducts(client: Database): void {
  const run = (sql: string) => client.run(sql)
  run(`UPDATE products SET
    images = coalesce((SELECT json_group_array(image_path) FROM
      (SELECT image_path FROM product_images i WHERE i.product_id = products.id ORDER BY sort_order, id)), '[]'),
    active_seq = NULL`)
  run(`UPDATE products SET active_seq = w.seq
    FROM (SELECT id, row_number() OVER (ORDER BY id) AS seq FROM products WHERE status = 1) w WHERE products.id = w.id`)
}

// master-contract §2: the last 10 digits of the digits in the caller number.
export function mobileOf(callerNumber: string): string {
  return callerNumber.replace(/\D+/g, '').slice(-10)
}
