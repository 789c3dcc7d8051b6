// Configuration (decision 30): environment variables, flags that win, defaults,
// and one-line reasons for what would stop `serve`.
import { describe, expect, test } from 'bun:test'
import { availableParallelism } from 'node:os'
import { parseCommandArgs } from '../src/cli/command'
import { serve } from '../src/cli/serve'
import { sync } from '../src/cli/sync'
import { loadConfig, requireSecret } from '../src/config'

describe('config', () => {
  test('defaults', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({ port: 3000, host: '0.0.0.0', dbPath: './data/listing.sqlite', rateLimitPerMin: 1200, rateLimitBurst: 100, logLevel: 'info' })
    expect(c.syncInterval).toBeUndefined()
    expect(c.storelookupSecret).toBeUndefined()
    expect(c.workers).toBe(availableParallelism()) // one serving thread per core
  })

  test('WORKERS and --workers set the serving threads', () => {
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3)
    expect(loadConfig({ WORKERS: '3' }, { workers: '1' }).workers).toBe(1)
  })

  test('flags override the environment, in both spellings', () => {
    const c = parseCommandArgs(serve, ['--port', '8080', '--db-path=/tmp/x.sqlite'], { PORT: '9000', DB_PATH: '/env.sqlite', RATE_LIMIT_PER_MIN: '0' })!.config
    expect([c.port, c.dbPath, c.rateLimitPerMin]).toEqual([8080, '/tmp/x.sqlite', 0])
    expect(c.given.sort()).toEqual(['DB_PATH', 'PORT', 'RATE_LIMIT_PER_MIN'])
  })

  test('a command reads and checks only its own settings', () => {
    const env = { PORT: 'abc', WORKERS: 'many', DB_PATH: '/tmp/s.sqlite', MYSQL_URL: 'mysql://u@h/db' }
    const c = parseCommandArgs(sync, [], env)!.config
    expect([c.dbPath, c.mysqlUrl, c.port]).toEqual(['/tmp/s.sqlite', 'mysql://u@h/db', 3000])
    expect(() => parseCommandArgs(serve, [], env)).toThrow('PORT must be a whole number')
    expect(() => parseCommandArgs(sync, ['--port', '80'], env)).toThrow('unknown flag --port; see "listing-api sync --help"')
  })

  test.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535'],
    [{ SYNC_INTERVAL: '0' }, 'SYNC_INTERVAL must be a whole number of at least 1'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be'],
    [{ WORKERS: '0' }, 'WORKERS must be a whole number from 1 to 256'],
    [{ WORKERS: '257' }, 'WORKERS must be a whole number from 1 to 256'],
    [{ MYSQL_URL: 'postgres://x' }, 'MYSQL_URL must look like'],
    [{ MYSQL_URL: 'not a url' }, 'MYSQL_URL must look like'],
  ])('%j is refused: %s', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })

  test('serve needs a STORELOOKUP_SECRET of at least 32 bytes', () => {
    expect(() => requireSecret(loadConfig({}))).toThrow('STORELOOKUP_SECRET is not set')
    expect(() => requireSecret(loadConfig({ STORELOOKUP_SECRET: 'x'.repeat(31) }))).toThrow('too weak')
    expect(requireSecret(loadConfig({ STORELOOKUP_SECRET: 'é'.repeat(16) }))).toBe('é'.repeat(16)) // 32 bytes in UTF-8
  })
})
