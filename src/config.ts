// The only reader of process.env: configuration by environment variables,
// overridden by command-line flags (decision 30). Each command reads and
// validates only the settings it uses; the result is passed down.
import { availableParallelism } from 'node:os'
import type { Level } from './log'
import { masterUrlProblem } from './sync/masterUrl'
import { STORELOOKUP_MIN_SECRET_BYTES } from './storelookup'
import { withoutServeHeapGrowth, withServingHeapGrowth } from './heapGrowth'

export interface Config {
  port: number
  host: string
  dbPath: string
  mysqlUrl: string | undefined
  storelookupSecret: string | undefined
  imageBaseUrl: string
  syncInterval: number | undefined
  staleAfter: number
  rateLimitPerMin: number
  rateLimitBurst: number
  logLevel: Level
  /** serving worker threads sharing the port */
  workers: number
  /** the settings given by the environment or a flag, rather than left at their defaults */
  given: SettingName[]
  testHooks: TestHooks
}

/** Hooks the test suite sets through the environment; never settings an operator sees. */
export interface TestHooks {
  /** sync dies with SIGKILL at this phase (the kill -9 tests) */
  haltAt?: string
  /** sync blocks its thread at this phase for holdMs, as a long SQLite statement would */
  holdAt?: string
  holdMs?: number
  /** sync's progress lines come this often instead of every 10 s (every second on a terminal) */
  progressEveryMs?: number
}

export class ConfigError extends Error {}

/** serve refuses more serving threads than this: a typo must not start thousands */
const MAX_WORKERS = 256

/** Each setting: its flag, its default (as the help shows it), and what it means (README's table). */
export const SETTINGS = {
  PORT: { flag: 'port', fallback: '3000', about: 'TCP port to listen on' },
  HOST: { flag: 'host', fallback: '0.0.0.0', about: 'Address to listen on' },
  DB_PATH: { flag: 'db-path', fallback: './data/listing.sqlite', about: 'The SQLite read store' },
  MYSQL_URL: { flag: 'mysql-url', fallback: '', about: 'The master, mysql://user:pass@host:port/db[?ssl=…] (mysql2 URL options)' },
  STORELOOKUP_SECRET: { flag: 'storelookup-secret', fallback: '', about: 'At least 32 bytes; the same on every replica' },
  IMAGE_BASE_URL: { flag: 'image-base-url', fallback: '', about: 'Joined to relative product image paths' },
  SYNC_INTERVAL: { flag: 'sync-interval', fallback: '', about: 'Seconds; when set, serve also syncs on that schedule' },
  STALE_AFTER: { flag: 'stale-after', fallback: '86400', about: 'Seconds; /health is degraded when the data is older' },
  RATE_LIMIT_PER_MIN: { flag: 'rate-limit-per-min', fallback: '1200', about: 'Requests a minute per integration; 0 turns the limit off' },
  RATE_LIMIT_BURST: { flag: 'rate-limit-burst', fallback: '100', about: 'Requests an integration may send at once' },
  LOG_LEVEL: { flag: 'log-level', fallback: 'info', about: 'debug, info, warn or error' },
  WORKERS: { flag: 'workers', fallback: '', about: `Serving threads sharing the port, 1 to ${MAX_WORKERS} (default: one per core)` },
} as const
export type SettingName = keyof typeof SETTINGS
const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[]

function integer(name: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name} must be a whole number ${max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`}, got "${value}"`)
  }
  return Number(value)
}

/**
 * The configuration from the environment and the flags a command was given
 * (keyed by flag name, without the dashes). Only the settings named in `reads`
 * are taken and checked; the others keep their defaults.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, flags: Record<string, string | undefined> = {}, reads: readonly SettingName[] = SETTING_NAMES): Config {
  const given: SettingName[] = []
  const get = (name: SettingName): string | undefined => {
    const setting = SETTINGS[name]
    const v = reads.includes(name) ? (flags[setting.flag] ?? env[name]) : undefined
    if (v !== undefined && v !== '') given.push(name)
    return v === undefined || v === '' ? (setting.fallback === '' ? undefined : setting.fallback) : v
  }
  const logLevel = get('LOG_LEVEL')!
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be debug, info, warn or error, got "${logLevel}"`)
  const mysqlUrl = get('MYSQL_URL')
  const problem = mysqlUrl === undefined ? undefined : masterUrlProblem(mysqlUrl)
  if (problem) throw new ConfigError(`MYSQL_URL ${problem}`)
  const interval = get('SYNC_INTERVAL')
  const workers = get('WORKERS')
  const [holdAt, holdMs] = (env.LISTING_API_HOLD_AT ?? '').split(':')
  return {
    port: integer('PORT', get('PORT')!, 0, 65_535),
    host: get('HOST')!,
    dbPath: get('DB_PATH')!,
    mysqlUrl,
    storelookupSecret: get('STORELOOKUP_SECRET'),
    imageBaseUrl: get('IMAGE_BASE_URL') ?? '',
    syncInterval: interval === undefined ? undefined : integer('SYNC_INTERVAL', interval, 1),
    staleAfter: integer('STALE_AFTER', get('STALE_AFTER')!, 1),
    rateLimitPerMin: integer('RATE_LIMIT_PER_MIN', get('RATE_LIMIT_PER_MIN')!, 0),
    rateLimitBurst: integer('RATE_LIMIT_BURST', get('RATE_LIMIT_BURST')!, 1),
    logLevel: logLevel as Level,
    workers: workers === undefined ? availableParallelism() : integer('WORKERS', workers, 1, MAX_WORKERS),
    given,
    testHooks: {
      haltAt: env.LISTING_API_HALT_AT || undefined,
      holdAt: holdAt || undefined,
      holdMs: holdMs ? Number(holdMs) : undefined,
      progressEveryMs: env.LISTING_API_PROGRESS_MS ? Number(env.LISTING_API_PROGRESS_MS) : undefined,
    },
  }
}

/** serve refuses to start without a strong secret (decision 30). */
export function requireSecret(config: Config): string {
  const secret = config.storelookupSecret
  if (secret === undefined) throw new ConfigError('STORELOOKUP_SECRET is not set; set it to a random string of at least 32 bytes')
  if (Buffer.byteLength(secret, 'utf8') < STORELOOKUP_MIN_SECRET_BYTES) {
    throw new ConfigError(`STORELOOKUP_SECRET is too weak: it must be at least ${STORELOOKUP_MIN_SECRET_BYTES} bytes`)
  }
  return secret
}

export function requireMysqlUrl(config: Config): string {
  if (config.mysqlUrl === undefined) throw new ConfigError('MYSQL_URL is not set; set it to mysql://user:pass@host:port/db')
  return config.mysqlUrl
}

/**
 * The environment of a process this one starts (serve's scheduled sync): this
 * process's, without any of the settings, plus the given ones, so the child reads
 * exactly what the parent resolved from its environment and flags.
 */
export function childEnvironment(settings: Partial<Record<SettingName, string>>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env }
  for (const name of SETTING_NAMES) delete env[name]
  return { ...withoutServeHeapGrowth(env), ...settings }
}

/** The environment serve runs itself again with to set its heap's growth (heapGrowth.ts); null when it is set already. */
export const servingEnvironment = () => withServingHeapGrowth(process.env)
