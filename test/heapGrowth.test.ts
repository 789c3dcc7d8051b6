// serve's heap growth (src/heapGrowth.ts): serve runs itself again, in the same
// process, with JavaScriptCore's heap growth set; an operator's own value is kept;
// the sync runs serve starts do not inherit what serve set for itself.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { childEnvironment } from '../src/config'
import { HEAP_GROWTH_BY_SERVE, HEAP_GROWTH_VARIABLE, SERVE_HEAP_GROWTH, withoutServeHeapGrowth, withServingHeapGrowth } from '../src/heapGrowth'
import { environmentOf, servePort, spawnOnFreePort } from './helpers'

const dir = mkdtempSync(join(tmpdir(), 'listing-heap-'))
const SECRET = 'heap-test-secret-0123456789abcdef0123'
const started: { kill(signal?: number | NodeJS.Signals): void; exitCode: number | null }[] = []
afterAll(() => {
  for (const p of started) if (p.exitCode === null) p.kill('SIGKILL')
})

describe('the environment serve runs itself again with', () => {
  test('sets the growth and marks it as serve\'s, keeping everything else', () => {
    expect(withServingHeapGrowth({ PATH: '/bin', DB_PATH: '/x' })).toEqual({ PATH: '/bin', DB_PATH: '/x', [HEAP_GROWTH_VARIABLE]: SERVE_HEAP_GROWTH, [HEAP_GROWTH_BY_SERVE]: '1' })
    expect(Number(SERVE_HEAP_GROWTH)).toBeGreaterThan(0.5) // below, every young collection is followed by a full one
  })

  test('is none when the environment says how far the heap may grow already: an operator\'s value, or serve run again', () => {
    expect(withServingHeapGrowth({ [HEAP_GROWTH_VARIABLE]: '1.5' })).toBeNull()
    expect(withServingHeapGrowth(withServingHeapGrowth({})!)).toBeNull()
  })

  test("a child's environment drops what serve set for itself, and keeps an operator's value", () => {
    expect(withoutServeHeapGrowth(withServingHeapGrowth({ PATH: '/bin' })!)).toEqual({ PATH: '/bin' })
    expect(withoutServeHeapGrowth({ PATH: '/bin', [HEAP_GROWTH_VARIABLE]: '1.5' })).toEqual({ PATH: '/bin', [HEAP_GROWTH_VARIABLE]: '1.5' })
    const saved = { ...process.env }
    try {
      Object.assign(process.env, withServingHeapGrowth({})!)
      const env = childEnvironment({ DB_PATH: '/x' })
      expect(env[HEAP_GROWTH_VARIABLE]).toBeUndefined()
      expect(env[HEAP_GROWTH_BY_SERVE]).toBeUndefined()
      expect(env.DB_PATH).toBe('/x')
    } finally {
      delete process.env[HEAP_GROWTH_VARIABLE]
      delete process.env[HEAP_GROWTH_BY_SERVE]
      Object.assign(process.env, saved)
    }
  })
})

describe('serve', () => {
  const serve = async (env: Record<string, string> = {}) => {
    const base: Record<string, string | undefined> = { ...process.env, STORELOOKUP_SECRET: SECRET, LOG_LEVEL: 'info', ...env }
    delete base[HEAP_GROWTH_BY_SERVE]
    if (!(HEAP_GROWTH_VARIABLE in env)) delete base[HEAP_GROWTH_VARIABLE]
    const s = await spawnOnFreePort([process.execPath, 'src/main.ts', 'serve', '--db-path', join(dir, `${started.length}.sqlite`), '--workers', '1'], { env: base }, servePort)
    started.push(s.proc)
    return s
  }

  test('serves as the process it was started as, with the heap growth set', async () => {
    const { proc, port } = await serve()
    // the process that answers is the one started: run again in place (execve), not a child
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200)
    const env = environmentOf(proc.pid)
    expect(env[HEAP_GROWTH_VARIABLE]).toBe(SERVE_HEAP_GROWTH)
    expect(env[HEAP_GROWTH_BY_SERVE]).toBe('1')
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
  }, 30_000)

  test("keeps an operator's value", async () => {
    const { proc, port } = await serve({ [HEAP_GROWTH_VARIABLE]: '1.5' })
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200)
    const env = environmentOf(proc.pid)
    expect(env[HEAP_GROWTH_VARIABLE]).toBe('1.5')
    expect(env[HEAP_GROWTH_BY_SERVE]).toBeUndefined()
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
  }, 30_000)
})
