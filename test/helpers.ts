// Builds the app in process over an in-memory read store seeded from the test
// fixtures, with tiny helpers to send requests.
import { DEMO_IMAGE_BASE, DEMO_KEY, DEMO_SECRET, seedDemo } from '../db/fixtures/demo'
import { seedTest, TEST_IMAGE_BASE, TEST_KEYS, TEST_SECRET } from '../db/fixtures/test'
import { createApp } from '../src/http/app'
import type { ApiDeps } from '../src/http/context'
import { RateLimiter } from '../src/http/rateLimit'
import { expect } from 'bun:test'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import type { TSchema } from '@sinclair/typebox'
import { openStore, type Store } from '../src/store/open'
import { mobileOf, refreshAll } from '../src/store/refresh'
import { createStorelookup } from '../src/storelookup'

export { TEST_KEYS }

export function testApp(options: RateOptions = {}) {
  const db = openStore(':memory:')
  seedTest(db)
  return appOver(db, TEST_SECRET, TEST_IMAGE_BASE, options)
}

interface RateOptions {
  rateLimitPerMin?: number
  burst?: number
  now?: () => number
  staleAfterSeconds?: number
  expectSync?: boolean
}

/** The app in process over a seeded read store, collecting what it logs as errors. */
export function appOver(db: Store, secret: string, imageBaseUrl: string, options: RateOptions = {}) {
  const deps: ApiDeps = {
    db,
    storelookup: createStorelookup(secret),
    imageBaseUrl,
    rateLimiter: new RateLimiter(options.rateLimitPerMin ?? 0, options.burst ?? 100, options.now),
    staleAfterSeconds: options.staleAfterSeconds ?? 86_400,
    expectSync: options.expectSync ?? false,
  }
  const errors: string[] = []
  const app = createApp(deps, { error: (m, f) => errors.push(`${m} ${JSON.stringify(f)}`) })
  return { app, db, deps, errors }
}

export type TestApp = ReturnType<typeof appOver>

/** A call a test adds to the demo data; store 0 stands for a NULL website_id in the read store. */
export interface ExtraCall {
  store: number
  time: string
  id: string
  caller?: string // default +919000000001
  substatus?: string // default Answered
  seconds?: number // default 30
}

/** The app over an in-memory store seeded with seedDemo, plus extra calls inserted the way the fixtures insert them. */
export function demoApp(extra: ExtraCall[] = []): TestApp {
  const db = openStore(':memory:')
  seedDemo(db)
  if (extra.length) {
    db.transaction(() => {
      const ins = db.$client.query(
        `INSERT INTO calls (website_id, call_start_time, call_log_id, caller_number, mobile, duration_seconds,
           did_number, event_type, substatus, recording_url, crm_lead_id, crm_synced_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, '+918040099999', 'TEST', ?, NULL, NULL, NULL, ?)`,
      )
      for (const c of extra) {
        const caller = c.caller ?? '+919000000001'
        ins.run(c.store, c.time, c.id, caller, mobileOf(caller), c.seconds ?? 30, c.substatus ?? 'Answered', c.time)
      }
      refreshAll(db.$client) // rebuild the derived columns and tables, as a sync would
    })
  }
  return appOver(db, DEMO_SECRET, DEMO_IMAGE_BASE)
}

/** POST as the demo integration. */
export const sendAsDemo = (t: TestApp, path: string, body: Record<string, unknown>) => post(t, path, body, { 'x-api-key': DEMO_KEY })

/** round(seconds / 60, 2) half-up (decision 22), in exact integer arithmetic: hundredths = seconds * 5 / 3. */
export function minutesHalfUp(seconds: number): number {
  const q = Math.floor((seconds * 5) / 3)
  const r = seconds * 5 - q * 3 // 0, 1 or 2 thirds of a hundredth
  return (q + (r * 2 >= 3 ? 1 : 0)) / 100
}

/** POST a JSON body (an object is stringified; a string is sent as is) with the Acme key unless told otherwise. */
export async function post(t: TestApp, path: string, body: unknown, headers: Record<string, string> = { 'x-api-key': TEST_KEYS.acme }) {
  const res = await t.app.handle(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  )
  const text = await res.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  if (json !== undefined) expectDocumented(t, path, res.status, json)
  return { res, status: res.status, json, text }
}

// The service serialises its answers itself (src/http/errors.ts, answer), so
// Elysia no longer checks them against the route's response schemas. Every
// answer the suite receives is checked here instead: a schema that documents
// something other than what the API sends fails the tests.
const compiled = new Map<TSchema, TypeCheck<TSchema>>()

/** Fails unless json is exactly what the route documents for that status. */
export function expectDocumented(t: TestApp, path: string, status: number, json: unknown): void {
  const route = t.app.routes.find((r) => r.method === 'POST' && r.path === path)
  const schema = (route?.hooks.response as Record<string, TSchema> | undefined)?.[status]
  if (!schema) return // not an API route (404 for an unknown path), or a status the route does not document
  let check = compiled.get(schema)
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)))
  const problems = check.Check(json) ? [] : [...check.Errors(json)].slice(0, 3).map((e) => `${e.path}: ${e.message}`)
  expect({ path, status, problems }).toEqual({ path, status, problems: [] })
}

/** A storelookup as the Acme integration (id 1) would receive it. */
export const tokenFor = (t: TestApp, websiteId: number, integrationId = 1) => t.deps.storelookup.seal(integrationId, websiteId)

/** POSTs and expects exactly the failure envelope { code, status: false, message } with that HTTP status. */
export async function expectFailure(t: TestApp, path: string, body: unknown, code: number, message: string) {
  const r = await post(t, path, body)
  expect({ status: r.status, body: r.json }).toEqual({ status: code, body: { code, status: false, message } })
}

/** Waits until a server answers at url (it may still be starting), and returns that answer. */
export async function waitForServer(url: string): Promise<Response> {
  for (let i = 0; i < 100; i++) {
    try {
      return await fetch(url)
    } catch {
      await Bun.sleep(50)
    }
  }
  throw new Error(`${url} never answered`)
}
