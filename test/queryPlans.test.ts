// Every statement that serves a request is an index seek: we record the SQL
// the endpoints run over a spread of requests and ask SQLite for each plan.
// At production size (20 M calls) a SCAN of a table would be a full read.
import { expect, test } from 'bun:test'
// The in-memory copies of the small tables (store/directory.ts) read those
// tables whole, but once per data version: over all the requests below, each
// such statement runs once.
import { post, testApp, tokenFor } from './helpers'
import { PER_VERSION } from '../src/store/snapshot'

test('no request scans a table', async () => {
  const t = testApp()
  const seen = new Set<string>()
  const perVersionRuns = new Map<string, number>()
  const client = t.db.$client
  const query = client.query.bind(client)
  client.query = ((sql: string) => {
    const statement = query(sql)
    if (!sql.startsWith(PER_VERSION)) {
      seen.add(sql)
      return statement
    }
    // count executions (whole or a row at a time), not look-ups of the cached statement
    const ran = () => perVersionRuns.set(sql, (perVersionRuns.get(sql) ?? 0) + 1)
    const all = statement.all.bind(statement)
    statement.all = ((...args: never[]) => (ran(), all(...args))) as typeof statement.all
    const iterate = statement.iterate.bind(statement)
    statement.iterate = ((...args: never[]) => (ran(), iterate(...args))) as typeof statement.iterate
    return statement
  }) as typeof client.query

  const JAN = { from_date: '2025-01-01', to_date: '2025-01-31' }
  for (const substatus of [undefined, 'Answered', 'Missed', 'Offline', 'missed']) {
    for (const scope of [{}, { sap_code: 'D100' }, { sap_code: 'D200' }, { storelookup: tokenFor(t, 101) }, { call_log_id: 'C-0104' }]) {
      expect((await post(t, '/listing/listingtiles', { ...JAN, ...scope, substatus, limit: 2, page: 2 })).status).toBeLessThan(500)
    }
    expect((await post(t, '/listing/calls', { ...JAN, storelookup: tokenFor(t, 101), substatus, limit: 2, page: 2 })).status).toBe(200)
  }
  expect((await post(t, '/listing/dealer', { ...JAN, sap_code: 'D100' })).status).toBe(200)
  expect((await post(t, '/listing/employee', { ...JAN, emp_code: 'E1' })).status).toBe(200)
  expect((await post(t, '/listing/daywise', { ...JAN, storelookup: tokenFor(t, 101), limit: 2, page: 2 })).status).toBe(200)
  expect((await post(t, '/products/filter', {})).status).toBe(200)
  expect((await post(t, '/products/filter', { page: 2 })).status).toBe(200)
  for (const f of ['color', 'finish', 'series', 'size', 'surface', 'range', 'texture']) {
    expect((await post(t, '/products/filter', { [f]: 'x', color: 'Grey' })).status).toBe(200)
  }
  // the change feed: from the beginning, after its own cursor, and after another replica's
  const first = await post(t, '/listing/changes', { limit: 2 })
  expect(first.status).toBe(200)
  expect((await post(t, '/listing/changes', { limit: 2, cursor: first.json.next_cursor })).json.returned).toBe(2)
  const foreign = t.deps.changesCursors.seal({ origin: 'ffffffffffffffff', after: { seq: 100, callLogId: 'C-0104' }, base: 90, head: 100 })
  expect((await post(t, '/listing/changes', { limit: 2, cursor: foreign })).json.returned).toBe(2)
  client.query = query

  expect(seen.size).toBeGreaterThan(20)
  const scans: string[] = []
  for (const sql of seen) {
    const plan = client.query(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]
    for (const { detail } of plan) {
      // a virtual table (json_each over the bound id list) is not a stored table
      if (/^SCAN /.test(detail) && !/VIRTUAL TABLE|^SCAN CONSTANT ROW$/.test(detail)) scans.push(`${detail}\n  in: ${sql.replace(/\s+/g, ' ').slice(0, 200)}`)
    }
  }
  expect(scans).toEqual([])
  // a feed answer after a cursor seeks to the whole position, not to its run and then filters
  const feedPlans = [...seen].filter((sql) => sql.includes('call_log_id) > (')).map((sql) => (client.query(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])[0].detail)
  expect(feedPlans.length).toBe(2)
  for (const detail of feedPlans) expect(detail).toMatch(/\(\(feed_seq,call_log_id\)>\(\?,\?\)\)/)
  // a dealer's page merges its stores' ranges of calls_store, already in order: no sort
  const mergedPlans = [...seen].filter((sql) => sql.includes('UNION ALL')).map((sql) => (client.query(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail))
  expect(mergedPlans.length).toBeGreaterThan(0)
  for (const plan of mergedPlans) {
    expect(plan[0]).toBe('MERGE (UNION ALL)')
    expect(plan.filter((d) => /TEMP B-TREE/.test(d))).toEqual([])
  }
  // the small tables were read whole once for all these requests, not once per request
  expect(perVersionRuns.size).toBeGreaterThan(3)
  expect([...perVersionRuns.values()].every((n) => n === 1)).toBe(true)
})
