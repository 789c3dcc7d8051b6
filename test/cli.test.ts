// The command line as operators meet it: help and version, one-line start-up
// failures, the access log, and a graceful stop with a request in flight.
import { describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedTest, TEST_KEYS } from '../db/fixtures/test'
import { newApiKey, plausibleApiKey } from '../src/keys'
import { openStore } from '../src/store/open'
import { demoPort, post, servePort, spawnOnFreePort, testApp } from './helpers'

const dir = mkdtempSync(join(tmpdir(), 'listing-cli-'))
const SECRET = 'cli-test-secret-0123456789abcdef0123'

async function cli(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, 'src/main.ts', ...args], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { stdout, stderr, code }
}

describe('commands', () => {
  test('help, each command\'s --help and -h, and version', async () => {
    for (const args of [['help'], ['-h'], ['--help'], []]) {
      const all = await cli(args)
      expect(all.code).toBe(0)
      for (const c of ['serve', 'sync', 'migrate', 'demo', 'keys', 'version']) expect(all.stdout).toContain(`  ${c}`)
    }
    // each command lists the settings it reads, and no others
    const reads: Record<string, string[]> = {
      serve: ['PORT', 'HOST', 'DB_PATH', 'STORELOOKUP_SECRET', 'WORKERS', 'SYNC_INTERVAL', 'MYSQL_URL', 'LOG_LEVEL'],
      sync: ['DB_PATH', 'MYSQL_URL'],
      migrate: ['DB_PATH'],
      demo: ['PORT', 'HOST', 'DB_PATH', 'STORELOOKUP_SECRET'],
      keys: ['MYSQL_URL', 'DB_PATH'],
    }
    for (const [c, settings] of Object.entries(reads)) {
      for (const args of [[c, '--help'], [c, '-h'], ['help', c]]) {
        const one = await cli(args)
        expect(one.code).toBe(0)
        expect(one.stdout).toStartWith(`listing-api ${c}`)
        for (const s of settings) expect(one.stdout).toContain(s)
      }
    }
    const syncHelp = (await cli(['sync', '--help'])).stdout
    for (const s of ['PORT', 'STORELOOKUP_SECRET', 'WORKERS', 'RATE_LIMIT']) expect(syncHelp).not.toContain(s)
    expect((await cli(['version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  }, 60_000)

  test.each([
    [['demo', '--prot', '39557'], 'listing-api: unknown flag --prot; see "listing-api demo --help"'],
    [['sync', '--port', 'abc'], 'listing-api: unknown flag --port; see "listing-api sync --help"'],
    [['serve', '--port'], 'listing-api: flag \'--port <value>\' argument missing; see "listing-api serve --help"'],
    [['migrate', 'now'], 'listing-api: unexpected argument "now"; see "listing-api migrate --help"'],
    [['help', 'frob'], 'listing-api: unknown command "frob"; run "listing-api help"'],
  ])('%j is a usage error: one line naming it, exit code 2', async (args, line) => {
    const r = await cli(args)
    expect({ code: r.code, stderr: r.stderr.trim() }).toEqual({ code: 2, stderr: line })
  }, 30_000)

  test('sync ignores the settings it does not read, however wrong', async () => {
    const r = await cli(['sync', '--db-path', join(dir, 'x.sqlite')], { PORT: 'abc', WORKERS: 'many', STORELOOKUP_SECRET: 'short' })
    expect(r.stderr.trim()).toBe('listing-api: MYSQL_URL is not set; set it to mysql://user:pass@host:port/db')
    expect(r.code).toBe(2)
  }, 30_000)

  test.each([
    [['serve', '--db-path', join(dir, 'a.sqlite')], {}, 'STORELOOKUP_SECRET is not set'],
    [['serve', '--db-path', join(dir, 'a.sqlite')], { STORELOOKUP_SECRET: 'short' }, 'STORELOOKUP_SECRET is too weak'],
    [['serve', '--db-path', '/proc/self/listing.sqlite'], { STORELOOKUP_SECRET: SECRET }, 'DB_PATH /proc/self/listing.sqlite is not writable'],
    [['sync', '--mysql-url', 'http://nope'], {}, 'MYSQL_URL must look like'],
    [['sync'], {}, 'MYSQL_URL is not set'],
    [['serve', '--port', 'abc'], { STORELOOKUP_SECRET: SECRET }, 'PORT must be a whole number'],
    [['frobnicate'], {}, 'unknown command'],
  ])('%j is a configuration error: one line, exit code 2', async (args, env, reason) => {
    const r = await cli(args, env)
    expect(r.code).toBe(2)
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining(reason)])
  }, 30_000)

  test('a read store written by a newer version stops serve with one line', async () => {
    const path = join(dir, 'newer.sqlite')
    const db = openStore(path)
    db.$client.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', 99999999999999)")
    db.$client.close()
    const r = await cli(['serve', '--db-path', path], { STORELOOKUP_SECRET: SECRET })
    expect(r.code).toBe(1)
    expect(r.stderr.trim()).toBe('listing-api: the read store was created by a newer version of listing-api; upgrade this binary')
  }, 30_000)
})

describe('API keys', () => {
  test('new keys carry the prefix and a checksum; a mistyped one is refused before any look-up', async () => {
    const key = newApiKey()
    expect(key).toMatch(/^lak_[A-Za-z0-9_-]{43}_[A-Za-z0-9_-]{6}$/)
    expect(newApiKey()).not.toBe(key)
    expect(plausibleApiKey(key)).toBe(true)
    const typo = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11)
    expect(plausibleApiKey(typo)).toBe(false)
    expect(plausibleApiKey(key.slice(0, -1))).toBe(false)
    expect(plausibleApiKey('legacy-key-without-prefix')).toBe(true) // left to the look-up
    const t = testApp()
    const lookups: string[] = []
    const query = t.db.$client.query.bind(t.db.$client)
    t.db.$client.query = ((sql: string) => (lookups.push(sql), query(sql))) as typeof t.db.$client.query
    const r = await post(t, '/products/filter', {}, { 'x-api-key': typo })
    expect(r.json).toEqual({ code: 401, status: false, message: 'Invalid API key' })
    expect(lookups.filter((sql) => sql.includes('integrations'))).toEqual([])
  })
})

describe('serve', () => {
  const startServe = (path: string) =>
    spawnOnFreePort([process.execPath, 'src/main.ts', 'serve', '--db-path', path], { env: { ...process.env, STORELOOKUP_SECRET: SECRET, LOG_LEVEL: 'info' } }, servePort)

  test('writes one access-log line a request, without the key, and stops on SIGTERM after the request in flight', async () => {
    const path = join(dir, 'served.sqlite')
    const db = openStore(path)
    seedTest(db)
    db.$client.close()
    const { proc, port, output } = await startServe(path)

    const ok = await fetch(`http://127.0.0.1:${port}/listing/dealer?x=1`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_KEYS.acme, 'x-request-id': 'log-me-1' },
      body: JSON.stringify({ sap_code: 'D100', from_date: '2025-01-01', to_date: '2025-01-31' }),
    })
    expect(ok.status).toBe(200)
    await fetch(`http://127.0.0.1:${port}/products/filter`, { method: 'POST', body: JSON.stringify({ api_key: TEST_KEYS.beta }) })

    // a request in flight: headers and half the body sent, then SIGTERM, then the rest
    const body = JSON.stringify({ from_date: '2025-01-01', to_date: '2025-01-31', sap_code: 'D100' })
    const socket = connect(port, '127.0.0.1')
    const reply = new Promise<string>((resolve) => {
      let text = ''
      socket.on('data', (d: Buffer) => (text += d.toString()))
      socket.on('close', () => resolve(text))
    })
    socket.write(`POST /listing/dealer HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: ${TEST_KEYS.acme}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`)
    await Bun.sleep(200)
    proc.kill('SIGTERM')
    await Bun.sleep(300)
    socket.write(body.slice(10))
    expect(await reply).toStartWith('HTTP/1.1 200')
    expect(await proc.exited).toBe(0)

    await output.reading
    const lines = output.stdout.map((l) => JSON.parse(l))
    const requests = lines.filter((l) => l.msg === 'request' && l.path !== '/health')
    expect(requests[0]).toMatchObject({ level: 'info', request_id: 'log-me-1', integration: 'Acme Partner', method: 'POST', path: '/listing/dealer', status: 200, rows: 2 })
    expect(typeof requests[0].duration_ms).toBe('number')
    expect(requests[1]).toMatchObject({ integration: 'Beta Partner', path: '/products/filter', status: 200, rows: 20 })
    expect(requests.length).toBeGreaterThanOrEqual(3)
    expect(lines.map((l) => l.msg)).toContain('stopped')
    const everything = JSON.stringify(lines) + output.stderr.join('\n')
    expect(everything).not.toContain(TEST_KEYS.acme)
    expect(everything).not.toContain(TEST_KEYS.beta)
  }, 30_000)
})

describe('demo keys', () => {
  test('keys --demo creates and revokes keys of a demo store on file, effective at once', async () => {
    const path = join(dir, 'demo.sqlite')
    const { proc, port } = await spawnOnFreePort([process.execPath, 'src/main.ts', 'demo', '--db-path', path], {}, demoPort)
    const created = await cli(['keys', 'create', '--demo', '--name', 'Trial partner', '--db-path', path])
    expect(created.code).toBe(0)
    const key = created.stdout.trim().split('\n').pop()!
    const ask = () => fetch(`http://127.0.0.1:${port}/products/filter`, { method: 'POST', headers: { 'x-api-key': key }, body: '{}' })
    const ok = (await (await ask()).json()) as any
    expect(ok.user).toBe('Trial partner')
    const id = /integration (\d+)/.exec(created.stdout)![1]
    expect((await cli(['keys', 'list', '--demo', '--db-path', path])).stdout).toContain(`${id}\tyes\t`)
    expect((await cli(['keys', '--demo', 'list', '--db-path', path])).stdout).toContain(`${id}\tyes\t`) // the flag takes no value
    expect((await cli(['keys', 'revoke', '--demo', '--id', id, '--db-path', path])).code).toBe(0)
    expect((await ask()).status).toBe(401)
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
  }, 30_000)
})
