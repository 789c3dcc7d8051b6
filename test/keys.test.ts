// keys create | list | revoke against a throwaway master, through the CLI as an
// operator runs it: a new key works after the next sync, a revoked one stops.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedMaster } from '../scripts/seed-master'
import { openStore } from '../src/store/open'
import { runSync } from '../src/sync/run'
import { appOver, post } from './helpers'
import { throwawayMaster } from './mariadb'

let m: Awaited<ReturnType<typeof throwawayMaster>>
beforeAll(async () => {
  m = await throwawayMaster()
  await seedMaster(m.master, { scale: 0.0005, seed: 9 })
}, 60_000)
afterAll(async () => {
  await m?.drop()
})

async function keys(...args: string[]) {
  const proc = Bun.spawn([process.execPath, 'src/main.ts', 'keys', ...args], { env: { ...process.env, MYSQL_URL: m.url }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { stdout, stderr, code }
}

test('a created key works after the next sync; a revoked one stops working after the next', async () => {
  const created = await keys('create', '--name', 'Acme Tiles Portal')
  expect(created.code).toBe(0)
  const key = created.stdout.trim().split('\n').pop()!
  expect(key).toMatch(/^lak_[A-Za-z0-9_-]{43}_[A-Za-z0-9_-]{6}$/)
  const [[row]] = (await m.master.query("SELECT id, api_key_sha256, is_active FROM api_integrations WHERE name = 'Acme Tiles Portal'")) as any
  expect(row.api_key_sha256).toMatch(/^[0-9a-f]{64}$/)
  expect(JSON.stringify(row)).not.toContain(key) // only the hash is stored

  const listed = await keys('list')
  expect(listed.stdout).toContain(`${row.id}\tyes\t`)
  expect(listed.stdout).toContain('Acme Tiles Portal')
  expect(listed.stdout).not.toContain(key)

  const db = openStore(join(mkdtempSync(join(tmpdir(), 'listing-keys-')), 'store.sqlite'))
  const t = appOver(db, 'keys-test-secret-0123456789abcdef0123', 'https://i/')
  await runSync(db, m.url)
  const ok = await post(t, '/products/filter', {}, { 'x-api-key': key })
  expect(ok.json.user).toBe('Acme Tiles Portal')

  const revoked = await keys('revoke', '--id', String(row.id))
  expect(revoked.code).toBe(0)
  expect((await post(t, '/products/filter', {}, { 'x-api-key': key })).status).toBe(200) // until the next sync
  await runSync(db, m.url)
  expect((await post(t, '/products/filter', {}, { 'x-api-key': key })).json).toEqual({ code: 401, status: false, message: 'Invalid API key' })
  expect((await keys('list')).stdout).toContain(`${row.id}\tno\t`)
}, 60_000)

test('bad keys commands fail with one line: 2 for a usage error, 1 for a failure', async () => {
  const cases: [string[], number, string][] = [
    [['create'], 2, 'keys create needs --name NAME'],
    [['revoke', '--id', 'x'], 2, 'keys revoke needs --id N'],
    [['frob'], 2, 'usage: listing-api keys create'],
    [['list', '--nmae', 'x'], 2, 'unknown flag --nmae'],
    [['revoke', '--id', '999999'], 1, 'no integration with id 999999'],
  ]
  for (const [args, code, reason] of cases) {
    const r = await keys(...args)
    expect({ args, code: r.code, lines: r.stderr.trim().split('\n') }).toEqual({ args, code, lines: [expect.stringContaining(reason)] })
  }
}, 60_000)
