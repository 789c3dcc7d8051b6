// The read store's own integrations table, for `keys --demo` on a demo store.
import type { KeyRegistry, IntegrationRow } from '../keyRegistry'
import { openStore, type Store } from './open'
import { digestKey } from './smallTables'

/** Whether the store has any integration yet (a demo store on file is seeded only once). */
export const hasIntegrations = (db: Store) => db.$client.query('SELECT 1 FROM integrations LIMIT 1').get() !== null

export function storeKeyRegistry(dbPath: string): KeyRegistry {
  const db = openStore(dbPath).$client
  // the table no longer holds what a sync wrote: without its digest, a server reads it again at every data version
  const forgetDigest = () => db.prepare('DELETE FROM meta WHERE key = ?').run(digestKey('integrations'))
  return {
    // one transaction with the change: a sync committing between the two would keep the digest, and
    // then take the table for the master's copy and never write it again (sync/run.ts)
    create: async (name, keySha256) =>
      db.transaction(() => {
        forgetDigest()
        return Number(db.prepare("INSERT INTO integrations (name, key_sha256, is_active, created_at) VALUES (?, ?, 1, datetime('now'))").run(name, keySha256).lastInsertRowid)
      })(),
    list: async () => db.query('SELECT id, name, is_active, created_at FROM integrations ORDER BY id').all() as IntegrationRow[],
    revoke: async (id) =>
      db.transaction(() => {
        forgetDigest()
        return db.prepare('UPDATE integrations SET is_active = 0 WHERE id = ?').run(id).changes > 0
      })(),
    close: async () => db.close(),
    takesEffect: 'at once',
  }
}
