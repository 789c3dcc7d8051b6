// What the benchmarks share (bench-inprocess.ts, bench-mixed.ts; the scenario selection also
// profile-serve.ts and bench-ab.ts): the scenarios of a synced read store, and the app over it
// as a serving worker has it.
import { readFileSync } from 'node:fs'
import { loadConfig } from '../../src/config'
import { createApp } from '../../src/http/app'
import { apiDeps } from '../../src/http/context'
import { callersRead } from '../../src/store/callerTotals'
import { minutesRead } from '../../src/store/minuteTotals'
import { openStore } from '../../src/store/open'
import { warmUp } from '../../src/store/warm'
import { benchKey } from '../seed-master'
import { onlyNamed } from './args'
import { BENCH_SECRET, benchScenarios, INTEGRATION_ID, type Scenario } from './scenarios'

/** The benchmark's scenarios over the store at `dbPath` that `keep` keeps, read on a connection of their own. */
export function scenariosOf(dbPath: string, keep: (s: Scenario) => boolean): Scenario[] {
  const store = openStore(dbPath, { readonly: true, migrate: false })
  try {
    return benchScenarios(store).filter(keep)
  } finally {
    store.$client.close()
  }
}

/**
 * The scenarios a served script measures: the bench's over HTTP (not the in-process-only ones),
 * those `--only` chooses (onlyNamed); or, with
 * `--bodies <file>` (a JSON body a line) and `--path`, one scenario of one's own bodies.
 */
export function servedScenarios(flags: Map<string, string>, dbPath: string): Pick<Scenario, 'name' | 'path' | 'ours'>[] {
  const own = flags.get('--bodies')
  if (own) return [{ name: own.split('/').pop()!, path: flags.get('--path') ?? '/listing/dealer', ours: readFileSync(own, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) }]
  const chosen = onlyNamed(flags)
  return scenariosOf(dbPath, (s) => s.path !== '-' && chosen(s.name))
}

/**
 * The app as a serving worker has it: its own connection holding snapshots, the callers
 * and call_minutes read before the first request, every route compiled. `requestOf` makes a request as
 * the bench's integration.
 */
export async function servingApp(dbPath: string) {
  const db = openStore(dbPath, { migrate: false, serving: true })
  const deps = apiDeps(db, loadConfig({ RATE_LIMIT_PER_MIN: '0' }), BENCH_SECRET, { expectSync: true })
  warmUp(db)
  await callersRead(db)
  await minutesRead(db)
  const app = createApp(deps, undefined, undefined, { precompile: true })
  const key = benchKey(INTEGRATION_ID)
  const requestOf = (path: string, body: string) =>
    new Request(`http://127.0.0.1${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-length': String(body.length) }, body })
  return { app, requestOf }
}
