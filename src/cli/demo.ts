// listing-api demo: the API over a read store seeded with demo data, on one
// thread, as the in-process tests run it (the demo store may live in memory).
import { DEMO_IMAGE_BASE, DEMO_KEY, DEMO_SECRET, seedDemo } from '../../db/fixtures/demo'
import { apiDeps } from '../http/context'
import { drainServer, startServer } from '../http/server'
import { createLogger } from '../log'
import { hasIntegrations } from '../store/integrations'
import { openStore } from '../store/open'
import type { Command } from './command'
import { stopOnSignals } from './process'

export const demo: Command = {
  name: 'demo',
  usage: 'demo [--db-path FILE]',
  about: 'Serve a read store seeded with demo data and print a demo API key. In memory, unless --db-path (or DB_PATH) names a file: then it is seeded once and kept, and `keys --demo` manages its keys.',
  reads: ['PORT', 'HOST', 'DB_PATH', 'STORELOOKUP_SECRET', 'IMAGE_BASE_URL', 'RATE_LIMIT_PER_MIN', 'RATE_LIMIT_BURST', 'LOG_LEVEL'],
  run({ config }) {
    const log = createLogger(config.logLevel)
    const onFile = config.given.includes('DB_PATH')
    const db = openStore(onFile ? config.dbPath : ':memory:')
    // a demo store on file is seeded once, so keys made for it with `keys --demo` survive restarts
    if (!onFile || !hasIntegrations(db)) seedDemo(db)
    const deps = apiDeps(db, { ...config, imageBaseUrl: config.imageBaseUrl || DEMO_IMAGE_BASE }, config.storelookupSecret ?? DEMO_SECRET, { expectSync: false })
    const server = startServer(deps, config.host, config.port, log)
    const base = `http://localhost:${server.port}`
    console.log(`listing-api demo serving demo data at ${base} (docs: ${base}/docs)`)
    console.log(`Demo API key: ${DEMO_KEY}`)
    console.log(`Try: curl -s -X POST ${base}/listing/dealer -H 'X-API-KEY: ${DEMO_KEY}' -H 'Content-Type: application/json' -d '{"sap_code":"SAP1001","from_date":"2025-01-01","to_date":"2025-01-31"}'`)
    stopOnSignals(log, () => drainServer(server))
  },
}
