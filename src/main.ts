// Command-line entry and subcommand dispatch: serve | sync | migrate | demo | keys | version | help.
// Settings come from the environment, flags override them (decision 30).
import { accessSync, constants, existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { DEMO_IMAGE_BASE, DEMO_KEY, DEMO_SECRET, seedDemo } from '../db/fixtures/demo'
import { version } from '../package.json'
import { ConfigError, loadConfig, parseFlags, requireSecret, SETTINGS, type Config } from './config'
import { RateLimiter } from './http/rateLimit'
import { startServer } from './http/server'
import { newApiKey } from './keys'
import { createLogger, type Logger } from './log'
import { openStore } from './store/open'
import { createStorelookup } from './storelookup'
import { sha256Hex } from './http/auth'
import { masterKeyRegistry } from './sync/integrations'
import { storeKeyRegistry } from './store/integrations'
import { runSync } from './sync/run'
import { startSyncSchedule } from './sync/schedule'

const SETTINGS_HELP = SETTINGS.map(([env, flag, def, what]) => `  ${flag.padEnd(22)} ${env.padEnd(20)} ${what}${def ? ` (default ${def})` : ''}`).join('\n')

const COMMANDS: Record<string, { usage: string; about: string }> = {
  serve: { usage: 'serve', about: 'Serve the API from the read store at DB_PATH (and sync every SYNC_INTERVAL seconds when set).' },
  sync: { usage: 'sync', about: 'Copy the master at MYSQL_URL into the read store at DB_PATH once, then exit (non-zero on failure).' },
  migrate: { usage: 'migrate', about: 'Create or upgrade the read store at DB_PATH, then exit.' },
  demo: {
    usage: 'demo [--db-path FILE]',
    about: 'Serve a read store seeded with demo data and print a demo API key. In memory, unless --db-path (or DB_PATH) names a file: then it is seeded once and kept, and `keys --demo` manages its keys.',
  },
  keys: {
    usage: 'keys create --name NAME | keys list | keys revoke --id N   [--demo]',
    about: "Manage API keys in the master's api_integrations (MYSQL_URL). A new key is printed once; only its SHA-256 is stored. Changes reach the API at the next sync. With --demo, the keys of the demo read store at DB_PATH instead, effective at once.",
  },
  version: { usage: 'version', about: 'Print the version.' },
  help: { usage: 'help [command]', about: 'Show help.' },
}

function help(command?: string): string {
  const c = command && COMMANDS[command]
  if (c) return `listing-api ${c.usage}\n\n${c.about}\n\nSettings (environment variable, or the flag, which wins):\n${SETTINGS_HELP}\n`
  return `listing-api ${version}: the listing performance, call history and product filter API

Usage: listing-api <command> [flags]    (listing-api <command> --help for one command)

Commands:
${Object.entries(COMMANDS).map(([name, { about }]) => `  ${name.padEnd(9)} ${about}`).join('\n')}

Settings (environment variable, or the flag, which wins):
${SETTINGS_HELP}
`
}

async function main(argv: string[]): Promise<void> {
  const { flags, rest } = parseFlags(argv)
  const command = rest[0] ?? 'help'
  if (command === 'help' || flags.has('--help')) return void console.log(help(command === 'help' ? rest[1] : command))
  if (command === 'version') return void console.log(version)
  if (!(command in COMMANDS)) throw new ConfigError(`unknown command "${command}"; run "listing-api help"`)
  const config = loadConfig(process.env, flags)
  const log = createLogger(config.logLevel)
  switch (command) {
    case 'serve':
      return serve(config, log)
    case 'demo':
      return demo(config, log, flags.has('--db-path') || !!process.env.DB_PATH)
    case 'sync':
      return sync(config)
    case 'migrate': {
      checkWritable(config.dbPath)
      openStore(config.dbPath).$client.close()
      return void console.log(`read store at ${config.dbPath} is up to date`)
    }
    case 'keys':
      return keys(config, rest.slice(1), flags)
  }
}

function serve(config: Config, log: Logger): void {
  const secret = requireSecret(config)
  checkWritable(config.dbPath)
  const db = openStore(config.dbPath)
  const deps = { db, storelookup: createStorelookup(secret), imageBaseUrl: config.imageBaseUrl, rateLimiter: new RateLimiter(config.rateLimitPerMin, config.rateLimitBurst), staleAfterSeconds: config.staleAfter, expectSync: true }
  const server = startServer(deps, config.host, config.port, log)
  const schedule = config.syncInterval === undefined ? undefined : startSyncSchedule(config.dbPath, requireMysqlUrl(config.mysqlUrl), config.syncInterval, log)
  log.info('listening', { url: server.url.href, db: config.dbPath, sync_interval: config.syncInterval ?? null })
  stopOnSignals(log, async () => {
    await Promise.all([schedule?.stop(), drain(server)])
    db.$client.close()
  })
}

function demo(config: Config, log: Logger, onFile: boolean): void {
  const db = openStore(onFile ? config.dbPath : ':memory:')
  // a demo store on file is seeded once, so keys made for it with `keys --demo` survive restarts
  if (!onFile || (db.$client.query('SELECT count(*) AS n FROM integrations').get() as { n: number }).n === 0) seedDemo(db)
  const deps = { db, storelookup: createStorelookup(config.storelookupSecret ?? DEMO_SECRET), imageBaseUrl: config.imageBaseUrl || DEMO_IMAGE_BASE, rateLimiter: new RateLimiter(config.rateLimitPerMin, config.rateLimitBurst), staleAfterSeconds: config.staleAfter, expectSync: false }
  const server = startServer(deps, config.host, config.port, log)
  const base = `http://localhost:${server.port}`
  console.log(`listing-api demo serving demo data at ${base} (docs: ${base}/docs)`)
  console.log(`Demo API key: ${DEMO_KEY}`)
  console.log(`Try: curl -s -X POST ${base}/listing/dealer -H 'X-API-KEY: ${DEMO_KEY}' -H 'Content-Type: application/json' -d '{"sap_code":"SAP1001","from_date":"2025-01-01","to_date":"2025-01-31"}'`)
  stopOnSignals(log, () => drain(server))
}

async function sync(config: Config): Promise<void> {
  const mysqlUrl = requireMysqlUrl(config.mysqlUrl)
  checkWritable(config.dbPath)
  // sync writes through its own connection; a running server reads the file through another
  const db = openStore(config.dbPath)
  const abort = new AbortController()
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => abort.abort())
  const halt = process.env.LISTING_API_HALT_AT // test hook: die with SIGKILL at this phase
  const result = await runSync(db.$client, mysqlUrl, { signal: abort.signal, onPhase: halt ? (p) => p === halt && process.kill(process.pid, 'SIGKILL') : undefined })
  const rows = Object.values(result.tables).reduce((n, t) => n + t.read, 0)
  const peakMb = Math.round(process.resourceUsage().maxRSS / 1024)
  console.log(`sync ok: ${result.full ? 'full load' : 'incremental'}, ${rows} rows read, ${result.repaired} repaired, ${(result.ms / 1000).toFixed(1)} s, peak RSS ${peakMb} MB, phases ${JSON.stringify(result.phases)}`)
  db.$client.close()
}

async function keys(config: Config, args: string[], flags: Map<string, string>): Promise<void> {
  const demo = flags.has('--demo')
  if (demo) checkWritable(config.dbPath)
  const registry = demo ? storeKeyRegistry(config.dbPath) : await masterKeyRegistry(requireMysqlUrl(config.mysqlUrl))
  const what = demo ? 'demo integration' : 'integration'
  try {
    switch (args[0]) {
      case 'create': {
        const name = flags.get('--name')
        if (!name || name === 'true') throw new ConfigError('keys create needs --name NAME')
        const key = newApiKey()
        const id = await registry.create(name, sha256Hex(key))
        return void console.log(`created ${what} ${id} "${name}"; its API key, shown only now:\n${key}`)
      }
      case 'list': {
        const rows = await registry.list()
        return void console.log(['id\tactive\tcreated\t\t\tname', ...rows.map((r) => `${r.id}\t${r.is_active ? 'yes' : 'no'}\t${r.created_at}\t${r.name}`)].join('\n'))
      }
      case 'revoke': {
        const id = Number(flags.get('--id'))
        if (!Number.isInteger(id) || id < 1) throw new ConfigError('keys revoke needs --id N')
        if (!(await registry.revoke(id))) throw new ConfigError(`no integration with id ${id}`)
        return void console.log(`revoked ${what} ${id}; the key stops working ${registry.takesEffect}`)
      }
      default:
        throw new ConfigError(`usage: listing-api ${COMMANDS.keys.usage}`)
    }
  } finally {
    await registry.close()
  }
}

/** Start-up check: the read store's folder (and the file, if it exists) must be writable. */
function checkWritable(dbPath: string): void {
  const target = existsSync(dbPath) ? dbPath : existsSync(dirname(dbPath)) ? dirname(dbPath) : undefined
  if (target === undefined) return // openStore creates the folder
  try {
    accessSync(target, constants.W_OK)
  } catch {
    throw new ConfigError(`DB_PATH ${dbPath} is not writable`)
  }
}

function requireMysqlUrl(url: string | undefined): string {
  if (url === undefined) throw new ConfigError('MYSQL_URL is not set; set it to mysql://user:pass@host:port/db')
  return url
}

/** Stop accepting, let requests in flight finish (up to 10 s), then close. */
async function drain(server: ReturnType<typeof startServer>): Promise<void> {
  await Promise.race([server.stop(false), Bun.sleep(10_000)])
  await server.stop(true)
}

function stopOnSignals(log: Logger, stop: () => Promise<void>): void {
  let stopping = false
  const onSignal = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info('stopping', { signal })
    await stop()
    log.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void onSignal('SIGTERM'))
  process.on('SIGINT', () => void onSignal('SIGINT'))
}

main(process.argv.slice(2)).catch((error) => {
  // one line, no stack trace: operators read logs, not source
  console.error(`listing-api: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
