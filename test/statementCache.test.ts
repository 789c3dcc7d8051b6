// Under mixed traffic every request's statements stay prepared: bun:sqlite's
// query() cache (20 statements by default, least recently used out) would push
// one request's statements out with the others' and prepare them again. A
// mix of every endpoint and call class runs twice; the second pass must get
// back the very statement objects the first prepared (store/open.ts).
import { Database, type Statement } from 'bun:sqlite'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { QUERY_CACHE_SIZE } from '../src/store/open'
import { demoApp, plannerReadsParameter, sendAsDemo, tokenFor, type TestApp } from './helpers'

const original = Database.prototype.query
const prepared = new Map<string, Statement>() // SQL text → the statement query() gave for it
let replaced: string[] = []

beforeAll(() => {
  Database.prototype.query = function (this: Database, sql: string) {
    const statement = original.call(this, sql) as Statement
    const before = prepared.get(sql)
    if (before !== undefined && before !== statement) replaced.push(sql)
    prepared.set(sql, statement)
    return statement
  } as typeof Database.prototype.query
})
afterAll(() => {
  Database.prototype.query = original
})

const YEAR = { from_date: '2025-01-01', to_date: '2025-12-31' }

async function everyAnswer(t: TestApp) {
  const bodies: [string, Record<string, unknown>][] = [
    ['/listing/dealer', { ...YEAR, sap_code: 'SAP1001' }],
    ['/listing/employee', { ...YEAR, emp_code: 'EMP001' }],
    ['/listing/daywise', { ...YEAR, storelookup: tokenFor(t, 1) }],
    ['/products/filter', {}],
    ['/listing/changes', { limit: 5 }],
  ]
  for (const substatus of [undefined, 'Answered', 'Missed', 'Offline', 'connected', 'missed']) {
    bodies.push(['/listing/listingtiles', { ...YEAR, substatus, page: 2, limit: 5 }])
    bodies.push(['/listing/listingtiles', { ...YEAR, substatus, sap_code: 'SAP1001', page: 2, limit: 5 }])
    bodies.push(['/listing/listingtiles', { ...YEAR, substatus, storelookup: tokenFor(t, 1), page: 2, limit: 5 }])
    bodies.push(['/listing/calls', { ...YEAR, substatus, storelookup: tokenFor(t, 1), page: 2, limit: 5 }])
  }
  for (const [path, body] of bodies) expect((await sendAsDemo(t, path, body)).status).toBe(200)
}

test("a mix of every answer prepares each of its statements once, within query()'s cache", async () => {
  const t = demoApp()
  await everyAnswer(t)
  replaced = []
  await everyAnswer(t)
  expect(replaced).toEqual([])
  // the mix is more than bun:sqlite's default keeps, and well within what the service keeps
  expect(prepared.size).toBeGreaterThan(20)
  expect(prepared.size).toBeLessThanOrEqual(QUERY_CACHE_SIZE / 2)
  expect(Database.MAX_QUERY_CACHE_SIZE).toBeGreaterThanOrEqual(QUERY_CACHE_SIZE)
})

// store/bound.ts: SQLite's planner reads a bare parameter of LIMIT or OFFSET, or of a key's equality
// before a range, and then prepares the statement again at each bind (a page of calls 11 µs a run
// against 5 with its LIMIT and OFFSET typed)
test('no statement of an answer leaves the planner a parameter to read', async () => {
  await everyAnswer(demoApp())
  const pages = [...prepared.keys()].filter((sql) => /\b(LIMIT|OFFSET)\b/i.test(sql) && sql.includes('?'))
  expect(pages.length).toBeGreaterThan(5) // the mix reached the pages: every call set's and the day-wise rows
  expect(plannerReadsParameter(prepared.keys())).toEqual([])
})
