// Sync says what it is doing: a line on stderr at a steady pace (every 10 s,
// here every 200 ms) with the phase, rows done of the master's own total, rows
// a second and the time left, even while the run's thread is busy in one long
// step; serve's scheduled sync logs the same facts as JSON lines.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedMaster } from '../scripts/seed-master'
import { progressFields, progressText } from '../src/sync/progress'
import { throwawayMaster } from './mariadb'

const dir = mkdtempSync(join(tmpdir(), 'listing-progress-'))
let m: Awaited<ReturnType<typeof throwawayMaster>>
beforeAll(async () => {
  m = await throwawayMaster()
  await seedMaster(m.master, { scale: 0.0005, seed: 4 })
}, 60_000)
afterAll(async () => {
  await m?.drop()
})

describe('a progress line', () => {
  test('says the phase, rows done of the total, rows a second, the time left and the time so far', () => {
    const state = { phase: 'reading call_logs', done: 1_234_000, total: 2_000_000, phaseMs: 12_340, runMs: 95_000 }
    expect(progressText(state)).toBe('sync: reading call_logs, 1,234,000 of 2,000,000 rows (61%), 100,000 rows/s, about 8 s left, 1 min 35 s in')
    expect(progressFields(state)).toEqual({ phase: 'reading call_logs', rows_done: 1_234_000, rows_total: 2_000_000, rows_per_s: 100_000, eta_s: 8, elapsed_s: 95 })
    expect(progressText({ phase: 'deriving tables', done: 0, total: 0, phaseMs: 5000, runMs: 21_000 })).toBe('sync: deriving tables, 21 s in')
  })
})

describe('the sync command', () => {
  test('writes progress lines on stderr at its pace, also while its thread is held in one step, with the master\'s totals', async () => {
    const [[{ calls }]] = (await m.master.query('SELECT count(*) AS calls FROM call_logs')) as any
    const proc = Bun.spawn([process.execPath, 'src/main.ts', 'sync', '--db-path', join(dir, 'lines.sqlite'), '--mysql-url', m.url], {
      env: { ...process.env, LISTING_API_PROGRESS_MS: '200', LISTING_API_HOLD_AT: 'derived:1500' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    expect(code).toBe(0)
    expect(stdout).toStartWith('sync ok: full load')
    const lines = stderr.trim().split('\n')
    for (const line of lines) expect(line).toMatch(/^sync: [a-z_ ()]+[a-z)](, .+)?, \d+ s in$/)
    // held 1.5 s after the derived step: lines kept coming, about one every 200 ms
    expect(lines.filter((l) => l.startsWith('sync: deriving tables (')).length).toBeGreaterThanOrEqual(5)
    const reading = lines.find((l) => l.startsWith('sync: reading call_logs'))
    if (reading) expect(reading).toContain(` of ${Number(calls).toLocaleString('en')} rows`)
  }, 60_000)

  test('serve\'s scheduled sync logs its progress as JSON lines', async () => {
    const proc = Bun.spawn([process.execPath, 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--workers', '1', '--db-path', join(dir, 'json.sqlite'), '--sync-interval', '3600', '--mysql-url', m.url], {
      env: { ...process.env, STORELOOKUP_SECRET: 'progress-test-secret-0123456789abcdef', LISTING_API_PROGRESS_MS: '200', LISTING_API_HOLD_AT: 'derived:1000' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    let out = ''
    const reader = proc.stdout.getReader()
    while (!out.includes('"msg":"sync ok"')) out += new TextDecoder().decode((await reader.read()).value)
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
    const progress = out.trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.msg === 'sync progress')
    expect(progress.length).toBeGreaterThanOrEqual(4)
    for (const p of progress) expect(Object.keys(p).sort()).toEqual(['elapsed_s', 'eta_s', 'level', 'msg', 'phase', 'rows_done', 'rows_per_s', 'rows_total', 'time'])
    expect(progress.some((p) => p.phase.startsWith('deriving tables'))).toBe(true)
  }, 60_000)
})
