// The legacy way, for the benchmark's baseline column: each request answered
// straight from the master with COUNT(*) plus LIMIT/OFFSET on its tables, as
// the service this one replaces did. Same response shapes, less care: caller
// counts are left out (computing them per row from the master is far slower
// still), so this baseline flatters the legacy service.
import mysql from 'mysql2/promise'

export function startLegacy(mysqlUrl: string, port: number) {
  const u = new URL(mysqlUrl)
  const pool = mysql.createPool({
    host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password),
    database: u.pathname.slice(1), dateStrings: true, connectionLimit: 16,
  })
  const rows = async (sql: string, params: unknown[]) => ((await pool.query(sql, params)) as [Record<string, unknown>[], unknown])[0]
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } })
  const metricsSql = `SELECT COUNT(*) AS days, COALESCE(SUM(desktop_search_impressions + mobile_search_impressions + desktop_maps_impressions + mobile_maps_impressions), 0) AS total_search,
    COALESCE(SUM(website_clicks), 0) AS website_clicks, COALESCE(SUM(call_clicks), 0) AS call_clicks, COALESCE(SUM(direction_requests), 0) AS direction_requests,
    COALESCE(SUM(business_bookings), 0) AS business_bookings FROM listing_daily_metrics WHERE website_id = ? AND metric_date BETWEEN ? AND ?`
  const storesSql = `SELECT w.id, w.sap_code, COALESCE(NULLIF(TRIM(w.store_name), ''), NULLIF(TRIM(d.dealer_name), ''), 'Dealer Name Not Available') AS dealership_name,
    COALESCE(w.city, '') AS city, COALESCE(w.state, '') AS state FROM websites w JOIN dealer_master d ON d.sap_code = w.sap_code AND d.is_active = 1 WHERE w.is_deleted = 0`
  const server = Bun.serve({
    port,
    hostname: '127.0.0.1',
    async fetch(request) {
      const path = new URL(request.url).pathname
      const b = (await request.json()) as Record<string, any>
      const page = Number(b.page ?? 1)
      const from = `${b.from_date} 00:00:00`
      const to = `${b.to_date} 23:59:59`
      if (path === '/listing/listingtiles' || path === '/listing/calls') {
        const where = ['c.call_start_time BETWEEN ? AND ?']
        const params: unknown[] = [from, to]
        if (b.sap_code) (where.push('w.sap_code = ?'), params.push(b.sap_code))
        if (b.website_id) (where.push('w.id = ?'), params.push(b.website_id))
        if (b.substatus === 'missed') where.push("c.substatus IN ('Missed', 'Offline')")
        const limit = Math.min(Number(b.limit ?? 50), 500)
        const base = `FROM call_logs c JOIN websites w ON w.id = c.website_id AND w.is_deleted = 0 JOIN dealer_master d ON d.sap_code = w.sap_code AND d.is_active = 1 WHERE ${where.join(' AND ')}`
        const [{ n }] = (await rows(`SELECT COUNT(*) AS n ${base}`, params)) as { n: number }[]
        const data = await rows(`SELECT c.*, w.sap_code, w.city, w.district, w.state, w.country, w.pincode ${base} ORDER BY c.call_start_time, c.call_log_id LIMIT ? OFFSET ?`, [...params, limit, (page - 1) * limit])
        return json({ code: 200, status: true, paging: { total_records: n, page, limit, returned: data.length }, data })
      }
      if (path === '/listing/dealer' || path === '/listing/employee') {
        const stores = path === '/listing/dealer'
          ? await rows(`${storesSql} AND w.sap_code = ? ORDER BY w.id`, [b.sap_code])
          : await rows(`${storesSql} AND w.sap_code IN (SELECT sap_code FROM employee_dealers WHERE emp_code = ?) ORDER BY w.sap_code, w.id`, [b.emp_code])
        const data = []
        for (const s of stores) data.push({ ...s, totals: (await rows(metricsSql, [s.id, b.from_date, b.to_date]))[0] })
        return json({ code: 200, status: true, returned: data.length, data })
      }
      if (path === '/listing/daywise') {
        const limit = Math.min(Number(b.limit ?? 31), 366)
        const [totals] = await rows(metricsSql, [b.website_id, b.from_date, b.to_date])
        const data = await rows('SELECT * FROM listing_daily_metrics WHERE website_id = ? AND metric_date BETWEEN ? AND ? ORDER BY metric_date LIMIT ? OFFSET ?', [b.website_id, b.from_date, b.to_date, limit, (page - 1) * limit])
        return json({ code: 200, status: true, total: totals.days, totals, data })
      }
      if (path === '/products/filter') {
        const where = ['status = 1']
        const params: unknown[] = []
        for (const [k, col] of [['color', 'color'], ['finish', 'finish'], ['series', 'series'], ['size', 'size'], ['surface', 'surface'], ['range', 'product_range'], ['texture', 'texture']]) {
          if (b[k]) (where.push(`${col} = ?`), params.push(b[k]))
        }
        const limit = Math.min(Number(b.limit ?? 20), 100)
        const [{ n }] = (await rows(`SELECT COUNT(*) AS n FROM products WHERE ${where.join(' AND ')}`, params)) as { n: number }[]
        const data = await rows(`SELECT * FROM products WHERE ${where.join(' AND ')} ORDER BY id LIMIT ? OFFSET ?`, [...params, limit, (page - 1) * limit])
        for (const p of data) p.images = (await rows('SELECT image_path FROM product_images WHERE product_id = ? ORDER BY sort_order, id', [p.id])).map((r) => r.image_path)
        return json({ code: 200, status: true, total: n, data })
      }
      return json({ code: 404, status: false, message: 'Not found' }, 404)
    },
  })
  return { server, close: () => (server.stop(true), pool.end()) }
}

if (import.meta.main) {
  const [url, port] = process.argv.slice(2)
  startLegacy(url, Number(port))
}
