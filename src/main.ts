// Command-line entry: serve | demo | migrate (sync and keys arrive with their issues).
import { ConfigError, loadConfig, parseFlags, requireSecret, SETTINGS } from './config'
import { DEMO_IMAGE_BASE, DEMO_KEY, DEMO_SECRET, seedDemo } from '../db/fixtures/demo'
import { RateLimiter } from './http/rateLimit'
import { startServer } from './http/server'
import { openStore } from './store/open'
import { createStorelookup } from './storelookup'

const HELP = `listing-api: the listing performance, call history and product filter API

Usage: listing-api <command> [flags]

Commands:
  serve     serve the API from the read store at DB_PATH
  demo      serve a read store seeded with demo data and print a demo API key
  migrate   create or upgrade the read store at DB_PATH, then exit
  help      show this help

Settings (environment variable, or the flag, which wins):
${SETTINGS.map(([env, flag, def, what]) => `  ${flag.padEnd(22)} ${env.padEnd(20)} ${what}${def ? ` (default ${def})` : ''}`).join('\n')}
`

function main(argv: string[]): void {
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
        { db, storelookup: createStorelookup(secret), imageBaseUrl: config.imageBaseUrl, rateLimiter: new RateLimiter(config.rateLimitPerMin, config.rateLimitBurst) },
        config.host,
        config.port,
      )
      console.log(JSON.stringify({ level: 'info', msg: 'listening', url: server.url.href, db: config.dbPath }))
      return
    }
    case 'demo': {
      const db = openStore(':memory:')
      seedDemo(db)
      const server = startServer(
        { db, storelookup: createStorelookup(config.storelookupSecret ?? DEMO_SECRET), imageBaseUrl: config.imageBaseUrl || DEMO_IMAGE_BASE, rateLimiter: new RateLimiter(config.rateLimitPerMin, config.rateLimitBurst) },
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

try {
  main(process.argv.slice(2))
} catch (error) {
  // one line, no stack trace: operators read logs, not source
  console.error(`listing-api: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
