// Opens the SQLite read store with the pragmas the service relies on and
// brings its schema up to date from the embedded migrations.
import { Database } from 'bun:sqlite'
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs'
import { dirname } from 'node:path'
import { migrations, newestMigrationMillis } from './migrations'
import * as schema from './schema'
import { endSnapshot, holdSnapshots } from './snapshot'

export type Store = BunSQLiteDatabase<typeof schema> & { $client: Database }

/**
 * Statements `query()` keeps prepared on a connection. bun:sqlite keeps 20 by default, least
 * recently used first out, and the API's requests use about 60 statement texts (each class of
 * calls has its own): under mixed traffic a request's statements had been pushed out by the
 * others' and were prepared again, about one a request. In process over a mix of every answer,
 * a dealer lookup took 223 and 243 µs with 20, 81 and 103 µs with this (seventh session of
 * issue 12 in docs/benchmarks.md). Process-wide: set once, before any store opens.
 */
export const QUERY_CACHE_SIZE = 256
Database.MAX_QUERY_CACHE_SIZE = Math.max(Database.MAX_QUERY_CACHE_SIZE, QUERY_CACHE_SIZE)

/** How long a statement that meets another connection's lock waits before it fails. */
export const BUSY_TIMEOUT_MS = 5_000

/** The file a connection's store is kept in; null for a store in memory, which no other connection sees. */
export const fileOf = (client: Database): string | null => (client.filename && client.filename !== ':memory:' ? client.filename : null)

interface OpenOptions {
  readonly?: boolean
  migrate?: boolean
  /** a serving worker's connection: it never writes (query_only), and holds its read snapshot from request to request (snapshot.ts) */
  serving?: boolean
  /** told once when a sync's first load holds the store and the open waits for it (ensureWal) */
  waiting?: () => void
}

const tellWaiting = () => console.error('listing-api: a sync is loading the read store for the first time; waiting for it to finish')

/** How long an open waiting for a direct first load sleeps between two tries. */
const WAIT_STEP_MS = 200

/** A store that a sync's first load is writing directly (store/syncRun.ts leaveWal): the file in rollback mode (header bytes 18 and 19 are 1), its journal beside it. */
function loadingDirectly(path: string): boolean {
  try {
    const header = Buffer.alloc(20)
    const fd = openSync(path, 'r')
    try {
      readSync(fd, header, 0, 20, 0)
    } finally {
      closeSync(fd)
    }
    return header[18] === 1 && header[19] === 1 && existsSync(`${path}-journal`)
  } catch {
    return false
  }
}

/**
 * WAL, set on the file (a no-op when it is already). A sync's first load with the store to
 * itself writes the file under a rollback journal and holds its locks until it commits
 * (store/syncRun.ts): an open then waits for it, saying so once, rather than fail; nothing can
 * be served before it anyway. Any other lock fails the open as before, after the busy timeout.
 * SQLite refuses the change at once, without its busy handler, while it holds a read lock of
 * its own, so each try is followed by a sleep, never a spin.
 */
function ensureWal(client: Database, path: string, waiting: () => void): void {
  for (let told = false; ; ) {
    try {
      client.run('PRAGMA journal_mode = WAL')
      return
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || !loadingDirectly(path)) throw error
      if (!told) waiting()
      told = true
      Bun.sleepSync(WAIT_STEP_MS)
    }
  }
}

export function openStore(path: string, { readonly = false, migrate = !readonly, serving = false, waiting = tellWaiting }: OpenOptions = {}): Store {
  if (path !== ':memory:' && !readonly) mkdirSync(dirname(path), { recursive: true })
  let client: Database
  try {
    client = new Database(path, readonly ? { readonly: true } : { create: true, readwrite: true, strict: true })
  } catch (error) {
    throw new Error(`cannot open the read store at ${path}: ${(error as Error).message}`)
  }
  // first: a statement below that meets a sync's lock then waits instead of failing
  client.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  // WAL: readers never block the sync writer and see only committed runs. The mode is kept in the
  // file; a serving worker sets it too, so that one opening during a direct first load waits for
  // it instead of reading under the load's rollback journal (and so holds the file in WAL after)
  if (path !== ':memory:' && !readonly) ensureWal(client, path, waiting)
  client.run('PRAGMA synchronous = NORMAL')
  // 8 MiB page cache (a sync sets its own): at 32 MiB a server under load at production size
  // passed its 256 MB budget, and the pages that do not fit are read from the OS's cache at no
  // measurable cost (issue 12; 5,965 against 6,117 req/s for a call-history page, within the spread)
  client.run('PRAGMA cache_size = -8192')
  const db = drizzle({ client, schema }) as Store
  // migrations sort with SQLite's default, temporary files (Bun's build: TEMP_STORE=1), as a sync
  // run does (store/syncRun.ts): 0010 rewrites the calls and at production size held 1.8 GB
  // sorting their indexes in memory, 82 MB in files
  if (migrate) migrateStore(db)
  client.run('PRAGMA temp_store = MEMORY')
  if (serving) {
    client.run('PRAGMA query_only = 1')
    holdSnapshots(db)
  }
  return db
}

export function closeStore(db: Store): void {
  endSnapshot(db)
  db.$client.close()
}

function migrateStore(db: Store): void {
  let newestApplied = 0
  try {
    const row = db.$client.query('SELECT max(created_at) AS m FROM __drizzle_migrations').get() as { m: number | null }
    newestApplied = Number(row?.m ?? 0)
  } catch {
    // no migrations table yet: a new read store
  }
  if (newestApplied > newestMigrationMillis) {
    throw new Error('the read store was created by a newer version of listing-api; upgrade this binary')
  }
  // drizzle's own migrator, fed from the embedded files instead of a folder. It prepares each
  // statement once and never finalizes it, and SQLite keeps a connection with statements left
  // open after close(): its lock on the file stayed for the life of the process (a sync could
  // then never write a first load directly while a serve had started). They are finalized here.
  const client = db.$client
  const prepare = client.prepare
  const prepared: { finalize(): void }[] = []
  client.prepare = ((...args: Parameters<Database['prepare']>) => {
    const statement = prepare.apply(client, args)
    prepared.push(statement)
    return statement
  }) as Database['prepare']
  try {
    ;(db as any).dialect.migrate(migrations, (db as any).session, { migrationsFolder: '' })
  } finally {
    Reflect.deleteProperty(client, 'prepare') // the prototype's again
    for (const statement of prepared) statement.finalize()
  }
}
