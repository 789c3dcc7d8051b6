// Command-line entry: serve | sync | demo | migrate (keys arrives with its issue).
import { ConfigError, loadConfig, parseFlags, requireSecret, SETTINGS } from './config'
import { DEMO_IMAGE_BASE, DEMO_KEY, DEMO_SECRET, seedDemo } from '../db/fixtures/demo'
import { RateLimiter } from './http/rateLimit'
import { startServer } from './http/server'
import { openStore } from './store/open'
import { createStorelookup } from './storelookup'
import { runSync } from './sync/run'
import { startSyncSchedule } from './sync/schedule'

const HELP = `listing-api: the listing performance, call history and product filter API

Usage: listing-api <command> [flags]

Commands:
  serve     serve the API from the read store at DB_PATH
  sync      copy the master at MYSQL_URL into the read store at DB_PATH, then exit
  demo      serve a read store seeded with demo data and print a demo API key
  migrate   create or upgrade the read store at DB_PATH, then exit
  help      show this help

Settings (environment variable, or the flag, which wins):
${SETTINGS.map(([env, flag, def, what]) => `  ${flag.padEnd(22)} ${env.padEnd(20)} ${what}${def ? ` (default ${def})` : ''}`).join('\n')}
`

async function main(argv: string[]): Promise<void> {
  const { flags, rest } = parseFlags(argv)
  const command = rest[0] ?? 'help'
  if (command === 'help' || flags.has('--help')) {
    console.log(HELP)
    return
  }
  const config = loadConfig(process.env, flags)
  switch (command) {
    case 'serve': {
      const secret = requireSecret(config)
      const db = openStore(config.dbPath)
      const server = startServer(
        { db, storelookup: createStorelookup(secret), imageBaseUrl: config.imageBaseUrl, rateLimiter: new RateLimiter(config.rateLimitPerMin, config.rateLimitBurst), staleAfterSeconds: config.staleAfter, expectSync: true },
        config.host,
        config.port,
      )
      console.log(JSON.stringify({ level: 'info', msg: 'listening', url: server.url.href, db: config.dbPath }))
      if (config.syncInterval !== undefined) startSyncSchedule(config.dbPath, requireMysqlUrl(config.mysqlUrl), config.syncInterval)
      return
    }
    case 'sync': {
      const mysqlUrl = requireMysqlUrl(config.mysqlUrl)
      // sync writes through its own connection; a running server reads the file through another
      const db = openStore(config.dbPath)
      const halt = process.env.LISTING_API_HALT_AT // test hook: die with SIGKILL at this phase
      const result = await runSync(db.$client, mysqlUrl, { onPhase: halt ? (p) => p === halt && process.kill(process.pid, 'SIGKILL') : undefined })
      const rows = Object.values(result.tables).reduce((n, t) => n + t.read, 0)
      const peakMb = Math.round(process.resourceUsage().maxRSS / 1024)
      console.log(`sync ok: ${result.full ? 'full load' : 'incremental'}, ${rows} rows read, ${result.repaired} repaired, ${(result.ms / 1000).toFixed(1)} s, peak RSS ${peakMb} MB, phases ${JSON.stringify(result.phases)}`)
      db.$client.close()
      return
    }
    case 'demo': {
      const db = openStore(':memory:')
      seedDemo(db)
      const server = startServer(
        { db, storelookup: createStorelookup(config.storelookupSecret ?? DEMO_SECRET), imageBaseUrl: config.imageBaseUrl || DEMO_IMAGE_BASE, rateLimiter: new RateLimiter(config.rateLimitPerMin, config.rateLimitBurst), staleAfterSeconds: config.staleAfter, expectSync: false },
        config.host,
        config.port,
      )
      const base = `http://localhost:${server.port}`
      console.log(`listing-api demo serving demo data at ${base} (docs: ${base}/docs)`)
      console.log(`Demo API key: ${DEMO_KEY}`)
      console.log(`Try: curl -s -X POST ${base}/listing/dealer -H 'X-API-KEY: ${DEMO_KEY}' -H 'Content-Type: application/json' -d '{"sap_code":"SAP1001","from_date":"2025-01-01","to_date":"2025-01-31"}'`)
      return
    }
    case 'migrate': {
      openStore(config.dbPath).$client.close()
      console.log(`read store at ${config.dbPath} is up to date`)
      return
    }
    default:
      throw new ConfigError(`unknown command "${command}"; run "listing-api help"`)
  }
}

function requireMysqlUrl(url: string | undefined): string {
  if (url === undefined) throw new ConfigError('MYSQL_URL is not set; set it to mysql://user:pass@host:port/db')
  return url
}

main(process.argv.slice(2)).catch((error) => {
  // one line, no stack trace: operators read logs, not source
  console.error(`listing-api: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
