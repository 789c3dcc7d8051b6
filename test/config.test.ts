// Configuration (decision 30): environment variables, flags that win, defaults,
// and one-line reasons for what would stop `serve`.
import { describe, expect, test } from 'bun:test'
import { loadConfig, parseFlags, requireSecret } from '../src/config'

describe('config', () => {
  test('defaults', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({ port: 3000, host: '0.0.0.0', dbPath: './data/listing.sqlite', rateLimitPerMin: 1200, rateLimitBurst: 100, logLevel: 'info' })
    expect(c.syncInterval).toBeUndefined()
    expect(c.storelookupSecret).toBeUndefined()
  })

  test('flags override the environment, in both spellings', () => {
    const { flags, rest } = parseFlags(['serve', '--port', '8080', '--db-path=/tmp/x.sqlite'])
    expect(rest).toEqual(['serve'])
    const c = loadConfig({ PORT: '9000', DB_PATH: '/env.sqlite', RATE_LIMIT_PER_MIN: '0' }, flags)
    expect([c.port, c.dbPath, c.rateLimitPerMin]).toEqual([8080, '/tmp/x.sqlite', 0])
  })

  test.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number'],
    [{ SYNC_INTERVAL: '0' }, 'SYNC_INTERVAL must be a whole number of at least 1'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be'],
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
