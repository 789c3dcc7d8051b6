// The only reader of process.env: configuration by environment variables,
// overridden by command-line flags (decision 30). Validated once, passed down.
import { STORELOOKUP_MIN_SECRET_BYTES } from './storelookup'

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
  logLevel: 'debug' | 'info' | 'warn' | 'error'
}

/** Each setting: its environment variable, its flag, its default, and what it means (README's table). */
export const SETTINGS = [
  ['PORT', '--port', '3000', 'TCP port to listen on'],
  ['HOST', '--host', '0.0.0.0', 'Address to listen on'],
  ['DB_PATH', '--db-path', './data/listing.sqlite', 'The SQLite read store'],
  ['MYSQL_URL', '--mysql-url', '', 'The master, mysql://user:pass@host:port/db (sync and keys)'],
  ['STORELOOKUP_SECRET', '--storelookup-secret', '', 'At least 32 bytes; the same on every replica'],
  ['IMAGE_BASE_URL', '--image-base-url', '', 'Joined to relative product image paths'],
  ['SYNC_INTERVAL', '--sync-interval', '', 'Seconds; when set, serve also syncs on that schedule'],
  ['STALE_AFTER', '--stale-after', '86400', 'Seconds; /health is degraded when the data is older'],
  ['RATE_LIMIT_PER_MIN', '--rate-limit-per-min', '1200', 'Requests a minute per integration; 0 turns the limit off'],
  ['RATE_LIMIT_BURST', '--rate-limit-burst', '100', 'Requests an integration may send at once'],
  ['LOG_LEVEL', '--log-level', 'info', 'debug, info, warn or error'],
] as const

export class ConfigError extends Error {}

/** Splits `--name value` and `--name=value` flags from the other arguments. */
export function parseFlags(argv: string[]): { flags: Map<string, string>; rest: string[] } {
  const flags = new Map<string, string>()
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (!arg.startsWith('--')) {
      rest.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    if (eq > 0) flags.set(arg.slice(0, eq), arg.slice(eq + 1))
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags.set(arg, argv[++i])
    else flags.set(arg, 'true')
  }
  return { flags, rest }
}

function integer(name: string, value: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min) throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${value}"`)
  return Number(value)
}

export function loadConfig(env: Record<string, string | undefined>, flags: Map<string, string> = new Map()): Config {
  const get = (envName: string): string | undefined => {
    const setting = SETTINGS.find(([e]) => e === envName)!
    const v = flags.get(setting[1]) ?? env[envName]
    return v === undefined || v === '' ? (setting[2] === '' ? undefined : setting[2]) : v
  }
  const logLevel = get('LOG_LEVEL')!
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be debug, info, warn or error, got "${logLevel}"`)
  const mysqlUrl = get('MYSQL_URL')
  if (mysqlUrl !== undefined) {
    let ok = false
    try {
      ok = new URL(mysqlUrl).protocol === 'mysql:'
    } catch {}
    if (!ok) throw new ConfigError('MYSQL_URL must look like mysql://user:pass@host:port/db')
  }
  const interval = get('SYNC_INTERVAL')
  return {
    port: integer('PORT', get('PORT')!, 0),
    host: get('HOST')!,
    dbPath: get('DB_PATH')!,
    mysqlUrl,
    storelookupSecret: get('STORELOOKUP_SECRET'),
    imageBaseUrl: get('IMAGE_BASE_URL') ?? '',
    syncInterval: interval === undefined ? undefined : integer('SYNC_INTERVAL', interval, 1),
    staleAfter: integer('STALE_AFTER', get('STALE_AFTER')!, 1),
    rateLimitPerMin: integer('RATE_LIMIT_PER_MIN', get('RATE_LIMIT_PER_MIN')!, 0),
    rateLimitBurst: integer('RATE_LIMIT_BURST', get('RATE_LIMIT_BURST')!, 1),
    logLevel: logLevel as Config['logLevel'],
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
