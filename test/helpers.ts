// Builds the app in process over an in-memory read store seeded from the test
// fixtures, with tiny helpers to send requests.
import { DEMO_IMAGE_BASE, DEMO_KEY, DEMO_SECRET, seedDemo } from '../db/fixtures/demo'
import { seedTest, TEST_IMAGE_BASE, TEST_KEYS, TEST_SECRET } from '../db/fixtures/test'
import { createApp } from '../src/http/app'
import { apiDeps } from '../src/http/context'
import { Database } from 'bun:sqlite'
import { expect } from 'bun:test'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'
import { openStore, type Store } from '../src/store/open'
import { applyChanges } from '../src/store/load'
import type { CallRow } from '../src/store/rows'
import { firstLine, gatherLines } from '../scripts/bench/probe'
import { readFileSync } from 'node:fs'

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
  const config = { imageBaseUrl, rateLimitPerMin: options.rateLimitPerMin ?? 0, rateLimitBurst: options.burst ?? 100, staleAfter: options.staleAfterSeconds ?? 86_400 }
  const deps = apiDeps(db, config, secret, { expectSync: options.expectSync ?? false, now: options.now })
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

/** An extra call as the master's row an incremental sync reads (store 0: no website_id). */
export const callRowOf = (c: ExtraCall): CallRow => ({
  call_log_id: c.id, website_id: c.store === 0 ? null : c.store, call_start_time: c.time, caller_number: c.caller ?? '+919000000001',
  duration_seconds: c.seconds ?? 30, did_number: '+918040099999', event_type: 'TEST', substatus: c.substatus ?? 'Answered',
  recording_url: null, crm_lead_id: null, crm_synced_at: null, created_at: c.time,
})

/** The app over an in-memory store seeded with seedDemo, plus extra calls applied the way an incremental sync applies them. */
export function demoApp(extra: ExtraCall[] = []): TestApp {
  const db = openStore(':memory:')
  seedDemo(db)
  if (extra.length) applyChanges(db, { calls: extra.map(callRowOf) })
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

/**
 * Fails unless json is exactly what the route documents for that status: the
 * schema accepts it, it has no field the schema lacks, and the status is one the
 * route documents at all.
 */
export function expectDocumented(t: TestApp, path: string, status: number, json: unknown): void {
  const route = t.app.routes.find((r) => r.method === 'POST' && r.path === path)
  if (!route) return // not an API route (404 for an unknown path)
  const schema = (route.hooks.response as Record<string, TSchema> | undefined)?.[status]
  expect({ path, status, documented: schema !== undefined }).toEqual({ path, status, documented: true })
  let check = compiled.get(schema!)
  if (!check) compiled.set(schema!, (check = TypeCompiler.Compile(schema!)))
  const problems = check.Check(json) ? [] : [...check.Errors(json)].slice(0, 3).map((e) => `${e.path}: ${e.message}`)
  // fields the schema does not name: what Value.Clean would take away
  const cleaned = Value.Clean(schema!, structuredClone(json))
  if (JSON.stringify(cleaned) !== JSON.stringify(json)) problems.push(`fields the schema does not document: ${JSON.stringify(json).slice(0, 300)}`)
  expect({ path, status, problems }).toEqual({ path, status, problems: [] })
}

/** A storelookup as the Acme integration (id 1) would receive it. */
export const tokenFor = (t: TestApp, websiteId: number, integrationId = 1) => t.deps.storelookup.seal(integrationId, websiteId)

/** POSTs and expects exactly the failure envelope { code, status: false, message } with that HTTP status. */
export async function expectFailure(t: TestApp, path: string, body: unknown, code: number, message: string) {
  const r = await post(t, path, body)
  expect({ status: r.status, body: r.json }).toEqual({ status: code, body: { code, status: false, message } })
}


/** The port in a line `serve` logs once it listens. */
export const servePort = (line: string) => (line.includes('"msg":"listening"') ? new URL(JSON.parse(line).url).port : undefined)
/** The port in the line `demo` prints once it listens. */
export const demoPort = (line: string) => /serving demo data at http:\/\/localhost:(\d+)/.exec(line)?.[1]

/**
 * A command that serves (argv, without --port and --host), started on a port the kernel picks: a
 * random one may be taken by another socket of this machine. Resolves once a line of its stdout
 * names the port (portIn); throws with what it printed if it exits or stays silent for 20 s.
 * `output` is its lines as they come (gatherLines).
 */
export async function spawnOnFreePort(argv: string[], options: { env?: Record<string, string | undefined>; cwd?: string }, portIn: (line: string) => string | undefined) {
  const proc = Bun.spawn([...argv, '--port', '0', '--host', '127.0.0.1'], { ...options, stdout: 'pipe', stderr: 'pipe' })
  const output = gatherLines(proc)
  const printed = () => `${output.stdout.join('\n')}\n${output.stderr.join('\n')}`
  /** the first line of stdout that matches, waiting for it while the command runs */
  const line = async (pattern: RegExp, timeoutMs = 60_000) => {
    const found = await firstLine(output.stdout, (l) => pattern.test(l), proc, timeoutMs)
    if (found === null) throw new Error(`${argv.join(' ')} never printed ${pattern}:\n${printed()}`)
    return found
  }
  const listening = await firstLine(output.stdout, (l) => portIn(l) !== undefined, proc, 20_000)
  if (listening === null) {
    proc.kill()
    await output.reading
    throw new Error(`${argv.join(' ')} never said where it listens:\n${printed()}`)
  }
  return { proc, port: Number(portIn(listening)), output, line }
}

/** A running process's environment, from /proc. */
export const environmentOf = (pid: number): Record<string, string> =>
  Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  )

/**
 * The statements among `sqls` that leave SQLite's planner a parameter it reads, after which
 * it prepares the statement again at every bind (store/bound.ts): a bare LIMIT or OFFSET, or
 * a bare equality on a key column followed by a range on the next.
 */
export const plannerReadsParameter = (sqls: Iterable<string>): string[] =>
  [...sqls].filter((sql) => /\b(LIMIT|OFFSET)\s+\?/i.test(sql) || /[\w.]+ = \?\d*\s+AND\s+\(?[\w.]+(?:, [\w.]+)*\)?\s*(?:<=|>=|<(?!>)|>)/.test(sql))

/** Records the SQL text of every statement prepared through Database.query until `stop`. */
export function recordStatements(): { texts: Set<string>; stop(): void } {
  const original = Database.prototype.query
  const texts = new Set<string>()
  Database.prototype.query = function (this: Database, sql: string) {
    texts.add(sql)
    return original.call(this, sql)
  } as typeof Database.prototype.query
  return { texts, stop: () => void (Database.prototype.query = original) }
}
