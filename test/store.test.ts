// The read store itself: embedded migrations, refusal of a newer store,
// and the derived columns refresh.ts keeps.
import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import journal from '../db/migrations/meta/_journal.json'
import { migrations } from '../src/store/migrations'
import { closeStore, openStore } from '../src/store/open'
import { copiesBuiltOnRequest, heldSnapshot, readSnapshot, watcherBuilding } from '../src/store/snapshot'
import { mobileOf } from '../src/store/derive/callers'
import { testApp } from './helpers'

describe('migrations', () => {
  test('every drizzle-kit journal entry is embedded, in order', () => {
    expect(migrations.map((m) => m.folderMillis)).toEqual(journal.entries.map((e) => e.when))
    for (const m of migrations) expect(m.sql.join('').trim()).toMatch(/^(--|CREATE|DROP|ALTER)/)
  })

  test('a new file store is created in WAL mode with the clustered tables WITHOUT ROWID', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    const db = openStore(path)
    expect((db.$client.query('PRAGMA journal_mode').get() as any).journal_mode).toBe('wal')
    const withoutRowid = db.$client
      .query("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%WITHOUT ROWID%' ORDER BY name")
      .all()
      .map((r: any) => r.name)
    // callers, call_minutes and metrics are keyed by an integer, their rowid: the fastest seek SQLite has
    expect(withoutRowid).toEqual(['call_days', 'caller_changes', 'calls', 'dealers', 'employee_dealers', 'feed_deleted'])
    // migrations sort to temporary files (open.ts); the store then keeps its temporary tables in memory again
    expect((db.$client.query('PRAGMA temp_store').get() as any).temp_store).toBe(2)
    db.$client.close()
    // opening again applies nothing twice
    const again = openStore(path)
    expect((again.$client.query('SELECT count(*) AS n FROM __drizzle_migrations').get() as any).n).toBe(migrations.length)
    again.$client.close()
  })

  test('a store migrated and closed holds nothing of the file: another connection may then take it alone (a first load written directly)', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    const takenAlone = () => {
      const alone = new Database(path, { readwrite: true })
      alone.run('PRAGMA busy_timeout = 0')
      // SQLite leaves WAL mode only for a connection with the file to itself
      expect(alone.query('PRAGMA journal_mode = DELETE').get()).toEqual({ journal_mode: 'delete' })
      alone.run('PRAGMA journal_mode = WAL')
      alone.close()
    }
    closeStore(openStore(path)) // creates it: every migration runs
    takenAlone()
    closeStore(openStore(path)) // opened again, nothing to apply: the same
    takenAlone()
  })

  test('a read store written by a newer version is refused with a one-line reason', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    const db = openStore(path)
    db.$client.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', 99999999999999)")
    db.$client.close()
    expect(() => openStore(path)).toThrow('created by a newer version')
  })
})

describe('derived values', () => {
  test.each([
    ['+91 98765 43210', '9876543210'],
    ['919876543210', '9876543210'],
    ['09876543210', '9876543210'],
    ['(022) 2345-678', '0222345678'],
    ['12345', '12345'],
    ['', ''],
  ])('mobile of %j is %j', (caller, mobile) => {
    expect(mobileOf(caller)).toBe(mobile)
  })

  test('store visibility and names follow the dealer master', () => {
    const { db } = testApp()
    const rows = db.$client.query('SELECT website_id, visible, dealership_name FROM stores ORDER BY website_id').all()
    expect(rows).toEqual([
      { website_id: 101, visible: 1, dealership_name: 'Alpha Tiles Andheri' },
      { website_id: 102, visible: 1, dealership_name: 'Alpha Tiles' },
      { website_id: 103, visible: 0, dealership_name: 'Alpha Closed' },
      { website_id: 201, visible: 1, dealership_name: 'Dealer Name Not Available' },
      { website_id: 301, visible: 0, dealership_name: 'Gamma Store' },
      { website_id: 501, visible: 1, dealership_name: 'Echo Showroom' },
      { website_id: 601, visible: 0, dealership_name: 'Orphan Store' },
    ])
  })

  test('call_minutes counts visible stores only; call_days running totals add up', () => {
    const { db } = testApp()
    const minutes = db.$client.query('SELECT sum(answered + missed + offline) AS n FROM call_minutes').get() as any
    expect(minutes.n).toBe(8) // 5 at 101, 2 at 102, 1 at 201
    const last = db.$client
      .query("SELECT cum_answered + cum_missed + cum_offline AS n, cum_sec_answered AS s FROM call_days WHERE website_id = 101 ORDER BY day DESC LIMIT 1")
      .get() as any
    expect(last).toEqual({ n: 5, s: 142 })
  })
})

describe('readSnapshot', () => {
  test("an answer's statements all see one snapshot, even when a sync commits in between", () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    const served = openStore(path)
    const sync = openStore(path)
    const count = () => (served.$client.query('SELECT count(*) AS n FROM dealers').get() as { n: number }).n
    const [before, after] = readSnapshot(served, () => {
      const first = count()
      sync.$client.run("INSERT INTO dealers VALUES ('SNAP1', 'Snapshot', 1)")
      return [first, count()]
    })
    expect(after).toBe(before)
    expect(count()).toBe(before + 1) // the next answer sees the commit
    expect(served.$client.inTransaction).toBe(false)
  })

  test('a serving connection holds one snapshot from request to request, and moves to a commit within a poll', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    openStore(path).$client.close() // created and migrated
    const served = openStore(path, { migrate: false, serving: true })
    const sync = openStore(path)
    const count = () => (served.$client.query('SELECT count(*) AS n FROM dealers').get() as { n: number }).n
    const first = readSnapshot(served, count)
    sync.$client.run("INSERT INTO dealers VALUES ('TURN1', 'Turn', 1)")
    expect(readSnapshot(served, count)).toBe(first) // the same snapshot
    await new Promise((resolve) => setImmediate(resolve))
    expect(served.$client.inTransaction).toBe(true) // held past the turn: no lock taken and released per turn
    expect(readSnapshot(served, count)).toBe(first)
    // the watcher looks every 10 ms; a busy machine may delay its timer
    for (let i = 0; i < 200 && readSnapshot(served, count) === first; i++) await Bun.sleep(10)
    expect(readSnapshot(served, count)).toBe(first + 1)
    closeStore(served)
  })

  test('an idle serving connection keeps a snapshot, opened again at the newest commit every 100 ms', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    openStore(path).$client.close()
    const served = openStore(path, { migrate: false, serving: true })
    const sync = openStore(path)
    const count = () => (served.$client.query('SELECT count(*) AS n FROM dealers').get() as { n: number }).n
    const first = readSnapshot(served, count)
    await Bun.sleep(250) // idle
    expect(served.$client.inTransaction).toBe(true)
    sync.$client.run("INSERT INTO dealers VALUES ('IDLE1', 'Idle', 1)")
    // with no request at all, the held snapshot moves on to the commit within a poll or a renewal
    const held = () => (served.$client.inTransaction ? count() : null)
    for (let i = 0; i < 200 && held() !== first + 1; i++) await Bun.sleep(10)
    expect(held()).toBe(first + 1)
    closeStore(served)
    closeStore(sync)
  })

  /** A store with 20,000 stores more than the fixtures (a directory built over several slices), digests 'a', and its serving connection. */
  const manyStores = () => {
    const { seedTest } = require('../db/fixtures/test') as typeof import('../db/fixtures/test')
    const { visibleStore, visibleStores } = require('../src/store/directory') as typeof import('../src/store/directory')
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    const sync = openStore(path)
    seedTest(sync)
    const insert = sync.$client.query("INSERT INTO stores (website_id, sap_code, store_name, city, is_deleted, visible, dealership_name) VALUES (?, 'SAP1001', ?, 'Many', 0, 1, ?)")
    sync.$client.transaction(() => {
      for (let i = 0; i < 20_000; i++) insert.run(100_000 + i, `Store ${i}`, `Store ${i}`)
    })()
    const digests = (value: string) => {
      for (const t of ['integrations', 'dealers', 'stores', 'employees', 'employee_dealers', 'products', 'product_images']) {
        sync.$client.query('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(`digest:${t}`, value)
      }
    }
    digests('a')
    const served = openStore(path, { migrate: false, serving: true })
    // what a request sees: the directory's copy of store 101 and the table itself, in one snapshot
    const seen = () => readSnapshot(served, () => [
      visibleStore(served, 101)!.city,
      (served.$client.query('SELECT city FROM stores WHERE website_id = 101').get() as { city: string }).city,
      visibleStores(served).size,
    ])
    /** a sync's commit that changes the stores: store 101 moves, 1,000 stores go */
    const commit = () => sync.$client.transaction(() => {
      sync.$client.run("UPDATE stores SET city = 'Elsewhere' WHERE website_id = 101")
      sync.$client.run('DELETE FROM stores WHERE website_id >= 119000')
      digests('b')
    })()
    return { sync, served, seen, commit, visibleStores: () => visibleStores(served) }
  }

  test('a commit that changes a small table: requests stay in the old snapshot until its copy is built, then move without building it', async () => {
    const { sync, served, seen, commit, visibleStores } = manyStores()
    const before = seen()
    const oldCopy = new WeakRef(readSnapshot(served, visibleStores))
    const built = copiesBuiltOnRequest()
    commit()
    expect(seen()).toEqual(before) // the commit is not yet in the held snapshot
    const views: unknown[][] = []
    let turnsWhileBuilding = 0
    for (let i = 0; i < 5000 && (views.at(-1)?.[0] ?? before[0]) === before[0]; i++) {
      views.push(seen())
      await new Promise((resolve) => setImmediate(resolve))
      if (watcherBuilding(served)) turnsWhileBuilding++
    }
    const after = views.at(-1)!
    expect(after).toEqual(['Elsewhere', 'Elsewhere', (before[2] as number) - 1000])
    // every answer meanwhile was the old snapshot with its own copy: never a mix
    for (const v of views.slice(0, -1)) expect(v).toEqual(before)
    expect(copiesBuiltOnRequest()).toBe(built) // the watcher built it: no request did
    Bun.gc(true)
    expect(oldCopy.deref()).toBeUndefined() // the old copy is let go once a request reads the new one
    // built a slice a turn (1 ms at most), requests answered between the slices: a build in one
    // piece would show at most a turn or two
    expect(turnsWhileBuilding).toBeGreaterThanOrEqual(4)
    closeStore(served)
    closeStore(sync)
  })

  test('a request to a serving connection that was idle when a commit came is answered from the old snapshot while the copy is built', async () => {
    // serve's second worker, when requests come to the first: its first request after a sync's
    // commit built the directory and the catalogue itself, blocking its thread (200-600 ms at
    // production size during a sync), when it had let its snapshot go for being idle
    const { sync, served, seen, commit } = manyStores()
    const before = seen()
    await Bun.sleep(300) // no request for longer than a renewal (and than the idle let-go of before)
    const built = copiesBuiltOnRequest()
    commit()
    for (let i = 0; i < 500 && !watcherBuilding(served); i++) await Bun.sleep(2)
    expect(watcherBuilding(served)).toBe(true)
    expect(seen()).toEqual(before) // the old snapshot with its own copy, at once
    expect(copiesBuiltOnRequest()).toBe(built)
    for (let i = 0; i < 500 && watcherBuilding(served); i++) await Bun.sleep(2)
    expect(seen()[0]).toBe('Elsewhere')
    expect(copiesBuiltOnRequest()).toBe(built) // nor after: the watcher built it
    closeStore(served)
    closeStore(sync)
  })

  for (const steady of [true, false]) test(`a sync run's checkpoint keeps the WAL from growing while a serving connection ${steady ? 'answers steadily' : 'holds a snapshot with no request'}`, async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    const setup = openStore(path)
    setup.$client.run('CREATE TABLE filler (x BLOB)')
    closeStore(setup)
    const served = openStore(path, { migrate: false, serving: true })
    readSnapshot(served, () => served.$client.query('SELECT count(*) FROM dealers').get())
    // requests every millisecond, or none: the serving connection holds a snapshot either way;
    // the longest wait between two turns of its event loop is reported should the WAL grow (a
    // stalled event loop holds the snapshot, and with it the checkpoint, as long as it stalls)
    let lastRequest = performance.now()
    let longestGap = 0
    // what the serving side was doing, by the wall clock: each change of whether its connection
    // holds a snapshot, at which data version, and whether its watcher builds copies; printed
    // for a checkpoint that waited, to tell which connection kept the WAL (a rare failure)
    const timeline: { at: number; state: string }[] = []
    let lastState = ''
    const load = setInterval(() => {
      const now = performance.now()
      longestGap = Math.max(longestGap, now - lastRequest)
      lastRequest = now
      if (steady) readSnapshot(served, () => served.$client.query('SELECT count(*) FROM dealers').get())
      const snapshot = heldSnapshot(served)
      const held = snapshot === null ? 'none' : `held since ${Math.round(performance.timeOrigin + snapshot.since)} at v${snapshot.version}`
      const state = `${held}${watcherBuilding(served) ? ' building' : ''}`
      if (state !== lastState) timeline.push({ at: Date.now(), state: (lastState = state) })
    }, 1)
    // six runs of about 2 MB each, from a process of their own, as serve's schedule runs sync
    const root = join(import.meta.dir, '..')
    const runs = Bun.spawn([process.execPath, '-e', `
      const { openStore } = await import(${JSON.stringify(join(root, 'src/store/open.ts'))})
      const { SyncRun } = await import(${JSON.stringify(join(root, 'src/store/syncRun.ts'))})
      const { statSync } = await import('node:fs')
      const sync = openStore(${JSON.stringify(path)})
      const blob = new Uint8Array(4000).fill(7)
      const results = []
      for (let n = 0; n < 6; n++) {
        const run = new SyncRun(sync)
        const insert = sync.$client.query('INSERT INTO filler VALUES (?)')
        for (let i = 0; i < 500; i++) insert.run(blob)
        run.commit({})
        const started = performance.now()
        const at = Date.now()
        run.checkpoint()
        const walBytes = statSync(${JSON.stringify(`${path}-wal`)}).size
        const checkpointMs = Math.round(performance.now() - started)
        // should the WAL have stayed: a passive checkpoint's frames copied against the log's tell a
        // reader still at an old snapshot (fewer copied) from one only still reading the WAL (all copied)
        const after = walBytes > 0 ? sync.$client.query('PRAGMA wal_checkpoint(PASSIVE)').values()[0] : []
        results.push({ at, walBytes, checkpointMs, passiveAfter: { busy: after[0], logFrames: after[1], copiedFrames: after[2] } })
      }
      console.log(JSON.stringify(results))
    `], { stdout: 'pipe', stderr: 'inherit' })
    const each = JSON.parse(await new Response(runs.stdout).text()) as { at: number; walBytes: number; checkpointMs: number; passiveAfter: object }[]
    await runs.exited
    clearInterval(load)
    const walBytes = each.map((r) => r.walBytes)
    if (Math.max(...walBytes) >= 2_000_000) {
      console.error('checkpoints:', JSON.stringify(each), 'longest gap between requests:', Math.round(longestGap), 'ms')
      for (const c of each.filter((c) => c.walBytes >= 2_000_000)) {
        const during = timeline.filter((t) => t.at >= c.at - 200 && t.at <= c.at + c.checkpointMs).map((t) => `${t.at} ${t.state}`)
        console.error(`serving side from 200 ms before the checkpoint at ${c.at} to its end:`, during.join('; '))
      }
    }
    // each run's pages went back into the store file and the WAL started over: never two runs' worth
    expect(walBytes.length).toBe(6)
    expect(Math.max(...walBytes)).toBeLessThan(2_000_000)
    closeStore(served)
  }, 30_000)

  test('a serving connection cannot write', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'listing-')), 'store.sqlite')
    openStore(path).$client.close()
    const served = openStore(path, { migrate: false, serving: true })
    expect(() => served.$client.run("INSERT INTO dealers VALUES ('W1', 'Write', 1)")).toThrow(/readonly|read-only|query_only/i)
  })

  test('a failing handler still ends its read transaction', () => {
    const t = testApp()
    expect(() => readSnapshot(t.db, () => { throw new Error('boom') })).toThrow('boom')
    expect(t.db.$client.inTransaction).toBe(false)
  })
})

// The directory and the catalogue are kept while the small tables they come
// from hold what they held (the digests a sync keeps in meta), and built again
// at each data version where there are none.
describe('perContent: kept while the small tables are the same', () => {
  const { seedTest, TEST_KEYS } = require('../db/fixtures/test') as typeof import('../db/fixtures/test')
  const { visibleStore, integrationByKeyHash } = require('../src/store/directory') as typeof import('../src/store/directory')
  const { storeKeyRegistry } = require('../src/store/integrations') as typeof import('../src/store/integrations')
  const { sha256Hex } = require('../src/http/auth') as typeof import('../src/http/auth')
  const TABLES = ['integrations', 'dealers', 'stores', 'employees', 'employee_dealers']
  const setDigests = (db: ReturnType<typeof openStore>, value: string) => {
    for (const t of TABLES) db.$client.query('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(`digest:${t}`, value)
  }
  const storeAt = (db: ReturnType<typeof openStore>) => readSnapshot(db, () => visibleStore(db, 101))

  test('the same digests keep the directory through a new data version; a moved one builds it again', () => {
    const db = openStore(':memory:')
    seedTest(db)
    setDigests(db, 'a')
    const first = storeAt(db)
    expect(first).not.toBeNull()
    db.$client.run("INSERT INTO meta (key, value) VALUES ('unrelated', 'x')")
    expect(storeAt(db)).toBe(first)
    db.$client.run("UPDATE stores SET city = 'Elsewhere' WHERE website_id = 101")
    setDigests(db, 'b')
    expect(storeAt(db)!.city).toBe('Elsewhere')
  })

  test('keys --demo on a synced store: a new key and a revoked one count at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'listing-perContent-'))
    const path = join(dir, 'store.sqlite')
    const db = openStore(path)
    seedTest(db)
    setDigests(db, 'synced')
    const keyOf = (key: string) => readSnapshot(db, () => integrationByKeyHash(db, sha256Hex(key)))
    expect(keyOf(TEST_KEYS.acme)).not.toBeNull()
    const registry = storeKeyRegistry(path)
    await registry.create('Newcomer', sha256Hex('a-new-key-for-the-demo-store-0000'))
    expect(keyOf('a-new-key-for-the-demo-store-0000')?.name).toBe('Newcomer')
    await registry.revoke(keyOf(TEST_KEYS.acme)!.id)
    expect(keyOf(TEST_KEYS.acme)).toBeNull()
    await registry.close()
  })
})

describe('facesById: a visible store’s face by website_id', () => {
  const { facesById } = require('../src/store/directory') as typeof import('../src/store/directory')
  const storesOf = (ids: number[]) =>
    new Map(ids.map((id) => {
      const face = { website_id: id, sap_code: `SAP${id}`, dealership_name: `Store ${id}`, city: null, district: null, state: null, country: null, pincode: null }
      return [id, { website_id: id, sap_code: face.sap_code, dealership_name: face.dealership_name, city: '', state: '', face }] as const
    }))

  // dense ids take the array by id, ids far apart the map: each answers every store's own face, and null for any other id
  for (const [layout, ids] of [['dense (an array by id)', [1, 2, 3, 7, 40_000]], ['sparse (the map)', [5, 90_000, 2_000_000_000]]] as const) {
    test(layout, () => {
      const stores = storesOf([...ids])
      const faceOf = facesById(stores)
      for (const id of ids) expect(faceOf(id)).toBe(stores.get(id)!.face)
      for (const id of [0, 4, 6, 39_999, 40_001, 1_999_999_999, -1, 2 ** 31]) expect(faceOf(id)).toBeNull()
    })
  }
})
