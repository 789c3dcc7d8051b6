// The one-file install: `bun build --compile` makes an executable that needs
// nothing beside it. Smoke suite: demo from an empty folder; then sync a master
// and serve it with the binary alone, every endpoint answering.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchKey, seedMaster } from '../scripts/seed-master'
import { build } from '../scripts/build'
import { HEAP_GROWTH_VARIABLE, SERVE_HEAP_GROWTH } from '../src/heapGrowth'
import { demoPort, environmentOf, servePort, spawnOnFreePort } from './helpers'
import { throwawayMaster } from './mariadb'

const work = mkdtempSync(join(tmpdir(), 'listing-binary-'))
const binary = join(work, 'build', 'listing-api')
let m: Awaited<ReturnType<typeof throwawayMaster>>

beforeAll(async () => {
  await build(binary)
  m = await throwawayMaster()
  await seedMaster(m.master, { scale: 0.0005, seed: 5 })
}, 120_000)
afterAll(async () => {
  await m?.drop()
})

const post = (port: number, path: string, key: string, body: object) =>
  fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { 'x-api-key': key }, body: JSON.stringify(body) })

describe('the compiled binary', () => {
  test('copied alone into an empty folder, demo serves demo data and prints a working key', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'listing-empty-'))
    copyFileSync(binary, join(empty, 'listing-api'))
    const { proc, port, line } = await spawnOnFreePort(['./listing-api', 'demo'], { cwd: empty, env: { PATH: '/usr/bin:/bin' } }, demoPort)
    const keyLine = await line(/API key/)
    const key = keyLine.split(' ').pop()!
    const r = await post(port, '/listing/dealer', key, { sap_code: 'SAP1001', from_date: '2025-01-01', to_date: '2025-01-31' })
    expect(r.status).toBe(200)
    expect(((await r.json()) as any).returned).toBeGreaterThan(0)
    const docs = await fetch(`http://127.0.0.1:${port}/docs/assets/swagger-ui-bundle.js`)
    expect(docs.status).toBe(200)
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
    expect(readdirSync(empty)).toEqual(['listing-api']) // demo wrote nothing beside it
  }, 60_000)

  test('sync then serve on two workers with a sync schedule, with the binary alone, answers every endpoint', async () => {
    const dbPath = join(work, 'store', 'listing.sqlite')
    const env = { PATH: '/usr/bin:/bin', DB_PATH: dbPath, MYSQL_URL: m.url, STORELOOKUP_SECRET: 'binary-test-secret-0123456789abcdef' }
    const sync = Bun.spawnSync([binary, 'sync'], { env, stdout: 'pipe', stderr: 'pipe', timeout: 120_000 }) // synchronous: a hang must not outlive the suite
    for (const line of sync.stderr.toString().split('\n').filter(Boolean)) expect(line).toStartWith('sync: ') // progress lines only
    expect(sync.stdout.toString()).toStartWith('sync ok: full load')
    const { proc, port, line, output } = await spawnOnFreePort([binary, 'serve', '--workers', '2', '--sync-interval', '3600'], { env }, servePort)
    const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as any
    expect(health.status).toBe('ok')
    const key = benchKey(2)
    const RANGE = { from_date: '2024-01-01', to_date: '2026-12-31' }
    const dealer = (await (await post(port, '/listing/dealer', key, { ...RANGE, sap_code: 'SAP000002' })).json()) as any
    expect(dealer.returned).toBeGreaterThan(0)
    const storelookup = dealer.data[0].storelookup
    const answers = await Promise.all([
      post(port, '/listing/listingtiles', key, { ...RANGE, limit: 5 }),
      post(port, '/listing/employee', key, { ...RANGE, emp_code: 'EMP00001' }),
      post(port, '/listing/daywise', key, { ...RANGE, storelookup }),
      post(port, '/listing/calls', key, { ...RANGE, storelookup }),
      post(port, '/products/filter', key, {}),
    ])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    // the binary ran itself again in place with its serving heap growth (src/heapGrowth.ts)
    expect(environmentOf(proc.pid)[HEAP_GROWTH_VARIABLE]).toBe(SERVE_HEAP_GROWTH)
    expect((await fetch(`http://127.0.0.1:${port}/openapi.json`)).status).toBe(200)
    // the scheduled run is the binary's own sync command, in a process of its own
    await line(/"msg":"sync ok"/)
    expect(output.stdout.join('\n')).toContain('"workers":2')
    // an unexpected error's stack names our source files: the source map is inside the binary
    // (the catalogue is kept while sync's digest of the products stands: without it, the next answer reads the table again)
    const store = new Database(dbPath)
    store.run('DROP TABLE products')
    store.run("DELETE FROM meta WHERE key = 'digest:products'")
    store.close()
    // a worker sees a commit within a poll of its watcher (10 ms), until then answering from the snapshot it holds
    let status = 0
    for (let i = 0; i < 100 && status !== 500; i++) {
      status = (await post(port, '/products/filter', key, {})).status
      if (status !== 500) await Bun.sleep(20)
    }
    expect(status).toBe(500)
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
    await output.reading
    const errors = output.stderr.join('\n')
    expect(errors).toContain('no such table: products')
    expect(errors).toMatch(/src\/(store|http)\/[a-zA-Z/]+\.ts:\d+/)
  }, 60_000)
})
