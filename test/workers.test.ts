// serve's process model, one test per guarantee: every serving worker shares
// one rate-limit bucket per integration, /metrics counts every worker's requests,
// the access log stays whole lines, a killed worker is replaced, a request is
// answered while a scheduled sync is held mid-run, and SIGTERM drains every
// worker and rolls a sync back.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { getPriority, tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedTest, TEST_KEYS } from '../db/fixtures/test'
import { benchKey, seedMaster } from '../scripts/seed-master'
import { loadConfig } from '../src/config'
import { startWorkers } from '../src/http/workers'
import { createLogger } from '../src/log'
import { openStore } from '../src/store/open'
import { servePort, spawnOnFreePort } from './helpers'
import { masterProxy, throwawayMaster } from './mariadb'

const dir = mkdtempSync(join(tmpdir(), 'listing-workers-'))
const started: { kill(signal?: number | NodeJS.Signals): void; exitCode: number | null }[] = []
afterAll(() => {
  for (const p of started) if (p.exitCode === null) p.kill('SIGKILL') // a failed test must not leave a server behind
})
const SECRET = 'workers-test-secret-0123456789abcdef'
const DEALER = JSON.stringify({ sap_code: 'D100', from_date: '2025-01-01', to_date: '2025-01-31' })

function fixtureStore(name: string): string {
  const path = join(dir, name)
  const db = openStore(path)
  seedTest(db)
  db.$client.close()
  return path
}

/** `serve` as its own process on a free port, with its stdout and stderr gathered line by line. */
async function serve(args: string[], env: Record<string, string> = {}) {
  const { proc, port, output } = await spawnOnFreePort([process.execPath, 'src/main.ts', 'serve', ...args], { env: { ...process.env, STORELOOKUP_SECRET: SECRET, LOG_LEVEL: 'info', ...env } }, servePort)
  started.push(proc)
  return { proc, port, lines: output.lines, reading: output.reading }
}

/** One request on a connection of its own, so the kernel may hand it to any worker. */
function rawPost(port: number, path: string, body: string, key = TEST_KEYS.acme): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    socket.on('data', (d: Buffer) => (text += d.toString()))
    socket.on('error', reject)
    socket.on('close', () => resolve(Number(text.split(' ')[1])))
    socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: ${key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  })
}

/** The processes whose parent is `pid`, from /proc (a process's stat: "pid (name) state ppid ..."). */
const childrenOf = (pid: number) =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === pid
      } catch {
        return false // ended meanwhile
      }
    })
    .map(Number)

const requestsTotal = (metrics: string) =>
  metrics
    .split('\n')
    .filter((l) => l.startsWith('listing_api_requests_total{'))
    .reduce((n, l) => n + Number(l.split(' ').pop()), 0)

describe('two serving workers', () => {
  test('share one rate-limit bucket per integration: a burst of 10 is 10 answers in all, not 10 each', async () => {
    const s = await serve(['--db-path', fixtureStore('limits.sqlite'), '--workers', '2'], { RATE_LIMIT_PER_MIN: '60', RATE_LIMIT_BURST: '10' })
    const statuses = await Promise.all(Array.from({ length: 100 }, () => rawPost(s.port, '/listing/dealer', DEALER)))
    const ok = statuses.filter((c) => c === 200).length
    expect(ok).toBeGreaterThanOrEqual(10)
    expect(ok).toBeLessThanOrEqual(12) // a token comes back every second while they arrive
    expect(statuses.filter((c) => c === 429).length).toBe(100 - ok)
    // another integration has its own bucket
    expect(await rawPost(s.port, '/products/filter', '{}', TEST_KEYS.beta)).toBe(200)
    s.proc.kill('SIGTERM')
    expect(await s.proc.exited).toBe(0)
  }, 30_000)

  test("logs ready once every worker holds the callers' totals and call_minutes", async () => {
    const s = await serve(['--db-path', fixtureStore('ready.sqlite'), '--workers', '2'])
    for (let i = 0; i < 100 && !s.lines.some((l) => l.includes('"msg":"ready"')); i++) await Bun.sleep(50)
    const ready = s.lines.find((l) => l.includes('"msg":"ready"'))
    expect(ready && JSON.parse(ready).workers).toBe(2)
    const metrics = await (await fetch(`http://127.0.0.1:${s.port}/metrics`)).text()
    expect(metrics).toContain('listing_api_caller_totals_in_memory 2')
    expect(metrics).toContain('listing_api_call_minutes_in_memory 2') // ready waits for both
    s.proc.kill('SIGTERM')
    expect(await s.proc.exited).toBe(0)
  }, 30_000)

  test('/metrics counts the requests of every worker; the access log is one whole line a request', async () => {
    const path = fixtureStore('metrics.sqlite')
    const store = openStore(path)
    store.$client.run('INSERT INTO sync_runs (started_at, finished_at, ok) VALUES (?, ?, 1)', [new Date().toISOString(), new Date().toISOString()])
    store.$client.close()
    const s = await serve(['--db-path', path, '--workers', '2'], { RATE_LIMIT_PER_MIN: '0' })
    const N = 120
    const statuses = await Promise.all(Array.from({ length: N }, (_, i) => rawPost(s.port, i % 2 ? '/listing/dealer' : '/products/filter', i % 2 ? DEALER : '{}')))
    expect(statuses).toEqual(Array(N).fill(200))
    const scrapes = await Promise.all(Array.from({ length: 6 }, () => fetch(`http://127.0.0.1:${s.port}/metrics`, { headers: { connection: 'close' } }).then((r) => r.text())))
    for (const text of scrapes) {
      expect(requestsTotal(text)).toBeGreaterThanOrEqual(N) // the scrapes before it are counted too
      expect(requestsTotal(text)).toBeLessThanOrEqual(N + 5)
      expect(text).toContain('listing_api_serving_workers{state="running"} 2')
    }
    // what the store says is the same in every worker: taken once, not summed
    expect(scrapes[0]).toContain('listing_api_sync_runs_total{result="ok"} 1\n')
    // while what each worker holds is summed: both have read the callers' base by now (a tiny store's is one slice)
    expect(scrapes.at(-1)).toContain('listing_api_caller_totals_in_memory 2\n')
    expect(Number(/^listing_api_data_age_seconds (\S+)$/m.exec(scrapes[0])![1])).toBeLessThan(60)
    const dealer = scrapes[0].split('\n').find((l) => l.startsWith('listing_api_requests_total{endpoint="/listing/dealer",status="200"}'))
    expect(dealer).toBe(`listing_api_requests_total{endpoint="/listing/dealer",status="200"} ${N / 2}`)
    // /health answers the same whichever worker is asked
    const health = await Promise.all(Array.from({ length: 10 }, () => fetch(`http://127.0.0.1:${s.port}/health`, { headers: { connection: 'close' } }).then((r) => r.text())))
    expect(new Set(health).size).toBe(1)
    s.proc.kill('SIGTERM')
    expect(await s.proc.exited).toBe(0)
    await s.reading
    const entries = s.lines.map((l) => JSON.parse(l)) // throws on a broken or interleaved line
    const apiLines = entries.filter((e) => e.msg === 'request' && e.method === 'POST')
    expect(apiLines).toHaveLength(N)
    expect(new Set(apiLines.map((e) => e.request_id)).size).toBe(N)
  }, 30_000)
})

describe('the port', () => {
  test('a port another server holds, even another serve sharing it, stops serve with one line', async () => {
    const path = fixtureStore('port.sqlite')
    const first = await serve(['--db-path', path, '--workers', '2'])
    const second = Bun.spawn([process.execPath, 'src/main.ts', 'serve', '--db-path', path, '--port', String(first.port), '--host', '127.0.0.1'], {
      env: { ...process.env, STORELOOKUP_SECRET: SECRET },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    started.push(second)
    expect(await second.exited).toBe(1)
    expect((await new Response(second.stderr).text()).trim()).toBe(`listing-api: cannot listen on 127.0.0.1:${first.port}: another server is using that port`)
    first.proc.kill('SIGTERM')
    expect(await first.proc.exited).toBe(0)
  }, 30_000)
})

describe('a serving worker that dies', () => {
  test('is logged and replaced; the server keeps answering with every worker', async () => {
    const path = fixtureStore('replaced.sqlite')
    const config = { ...loadConfig({ DB_PATH: path, HOST: '127.0.0.1', PORT: '0', WORKERS: '2', LOG_LEVEL: 'warn' }) }
    const logged: any[] = []
    const log = createLogger('info', (line) => logged.push(JSON.parse(line)))
    const workers = await startWorkers(config, SECRET, log)
    try {
      expect(workers.running()).toBe(2)
      await workers.threads()[0].terminate() // as if it had crashed
      for (let i = 0; i < 100 && !logged.some((l) => l.msg === 'serving worker replaced'); i++) await Bun.sleep(50)
      expect(logged.map((l) => l.msg)).toEqual(['serving worker stopped; starting another', 'serving worker replaced'])
      expect(logged[0]).toMatchObject({ level: 'error', running: 1, configured: 2 })
      expect(logged[1]).toMatchObject({ running: 2, configured: 2 })
      expect(workers.running()).toBe(2)
      const statuses = await Promise.all(Array.from({ length: 40 }, () => rawPost(workers.port, '/listing/dealer', DEALER)))
      expect(statuses).toEqual(Array(40).fill(200))
    } finally {
      await workers.stop()
    }
  }, 30_000)
})

describe('serve with a sync schedule', () => {
  let m: Awaited<ReturnType<typeof throwawayMaster>>
  beforeAll(async () => {
    m = await throwawayMaster()
    await seedMaster(m.master, { scale: 0.0005, seed: 9 })
  })
  afterAll(async () => {
    await m?.drop()
  })

  const products = (port: number) => rawPost(port, '/products/filter', '{}', benchKey(2))
  const lastRun = (path: string) => {
    const db = openStore(path, { readonly: true, migrate: false })
    const row = db.$client.query('SELECT ok, error, finished_at FROM sync_runs ORDER BY id DESC LIMIT 1').get() as { ok: number | null; error: string | null; finished_at: string | null } | null
    db.$client.close()
    return row
  }

  test('answers requests at once while a scheduled sync is held mid-run', async () => {
    const path = join(dir, 'held.sqlite')
    const first = Bun.spawn([process.execPath, 'src/main.ts', 'sync', '--db-path', path, '--mysql-url', m.url], { stdout: 'pipe', stderr: 'pipe' })
    expect(await first.exited).toBe(0)
    // the scheduled run blocks its thread for 4 s after its snapshot, as a long SQLite statement would
    const s = await serve(['--db-path', path, '--workers', '2', '--sync-interval', '3600', '--mysql-url', m.url], { LISTING_API_HOLD_AT: 'snapshot:4000' })
    for (let i = 0; i < 100 && lastRun(path)?.finished_at !== null; i++) await Bun.sleep(20)
    expect(lastRun(path)).toEqual({ ok: null, error: null, finished_at: null }) // the run is under way
    // its process works below the serving workers' priority (10 more nice), serve at the one it was started with
    expect(getPriority(s.proc.pid)).toBe(getPriority())
    expect(childrenOf(s.proc.pid).map((pid) => getPriority(pid))).toEqual([Math.min(19, getPriority() + 10)])
    await Bun.sleep(300)
    const times: number[] = []
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now()
      expect(await products(s.port)).toBe(200)
      times.push(performance.now() - t0)
      await Bun.sleep(50)
    }
    expect(lastRun(path)?.finished_at).toBeNull() // all of them were answered while it was held
    expect(Math.max(...times)).toBeLessThan(250)
    for (let i = 0; i < 200 && lastRun(path)?.finished_at === null; i++) await Bun.sleep(50)
    expect(lastRun(path)).toMatchObject({ ok: 1 })
    for (let i = 0; i < 100 && !s.lines.some((l) => l.includes('"msg":"sync ok"')); i++) await Bun.sleep(50)
    expect(s.lines.some((l) => l.includes('"msg":"sync ok"'))).toBe(true)
    s.proc.kill('SIGTERM')
    expect(await s.proc.exited).toBe(0)
  }, 60_000)

  test('SIGTERM with two workers and a sync running: requests in flight finish, the sync rolls back, exit 0', async () => {
    const path = join(dir, 'stopped.sqlite')
    const first = Bun.spawn([process.execPath, 'src/main.ts', 'sync', '--db-path', path, '--mysql-url', m.url], { stdout: 'pipe', stderr: 'pipe' })
    expect(await first.exited).toBe(0)
    const proxy = await masterProxy(m.url, 'stall')
    proxy.state.budget = 20_000 // enough to connect and begin the snapshot, not to finish
    const s = await serve(['--db-path', path, '--workers', '2', '--sync-interval', '3600', '--mysql-url', proxy.url])
    for (let i = 0; i < 100 && lastRun(path)?.finished_at !== null; i++) await Bun.sleep(20)
    expect(lastRun(path)?.finished_at).toBeNull()

    // requests in flight on both workers: headers and half the body sent, then SIGTERM, then the rest
    const inFlight = Array.from({ length: 8 }, () => {
      const socket = connect(s.port, '127.0.0.1')
      const reply = new Promise<string>((resolve) => {
        let text = ''
        socket.on('data', (d: Buffer) => (text += d.toString()))
        socket.on('close', () => resolve(text))
      })
      socket.write(`POST /listing/dealer HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: ${benchKey(2)}\r\nContent-Length: ${DEALER.length}\r\nConnection: close\r\n\r\n${DEALER.slice(0, 10)}`)
      return { socket, reply }
    })
    await Bun.sleep(300)
    const t0 = Date.now()
    s.proc.kill('SIGTERM')
    await Bun.sleep(300)
    for (const r of inFlight) r.socket.write(DEALER.slice(10))
    for (const r of inFlight) expect(await r.reply).toStartWith('HTTP/1.1 200')
    expect(await s.proc.exited).toBe(0)
    expect(Date.now() - t0).toBeLessThan(10_000)
    proxy.close()
    await s.reading
    const run = lastRun(path)!
    expect(run.ok).toBe(0)
    expect(run.finished_at).not.toBeNull()
    const msgs = s.lines.map((l) => JSON.parse(l).msg)
    expect(msgs).toContain('sync stopped and rolled back')
    expect(msgs.at(-1)).toBe('stopped')
  }, 60_000)

  test('SIGTERM while the scheduled sync is stuck in a long step of its own: it is killed, serve exits 0 in time', async () => {
    const path = join(dir, 'stuck.sqlite')
    // the run blocks its thread for 60 s, so it cannot act on SIGTERM
    const s = await serve(['--db-path', path, '--workers', '2', '--sync-interval', '3600', '--mysql-url', m.url], { LISTING_API_HOLD_AT: 'snapshot:60000' })
    for (let i = 0; i < 100 && lastRun(path)?.finished_at !== null; i++) await Bun.sleep(20)
    await Bun.sleep(500)
    const t0 = Date.now()
    s.proc.kill('SIGTERM')
    expect(await s.proc.exited).toBe(0)
    expect(Date.now() - t0).toBeLessThan(12_000)
    await s.reading
    expect(s.lines.map((l) => JSON.parse(l).msg)).toContain('sync stopped and rolled back')
    expect(lastRun(path)?.finished_at).toBeNull() // killed: nothing was written but the start of its record
    const next = Bun.spawn([process.execPath, 'src/main.ts', 'sync', '--db-path', path, '--mysql-url', m.url], { stdout: 'pipe', stderr: 'pipe' })
    expect(await next.exited).toBe(0)
    const db = openStore(path, { readonly: true, migrate: false })
    expect(db.$client.query('SELECT ok, error FROM sync_runs ORDER BY id').all()).toEqual([
      { ok: 0, error: 'interrupted: its process ended before the run finished' },
      { ok: 1, error: null },
    ])
    db.$client.close()
  }, 60_000)
})
