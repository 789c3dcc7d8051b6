// The read store's own integrations table, for `keys --demo` on a demo store.
import type { KeyRegistry, IntegrationRow } from '../keyRegistry'
import { openStore, type Store } from './open'

/** Whether the store has any integration yet (a demo store on file is seeded only once). */
export const hasIntegrations = (db: Store) => db.$client.query('SELECT 1 FROM integrations LIMIT 1').get() !== null

export function storeKeyRegistry(dbPath: string): KeyRegistry {
  const db = openStore(dbPath).$client
  return {
    create: async (name, keySha256) =>
      Number(db.prepare("INSERT INTO integrations (name, key_sha256, is_active, created_at) VALUES (?, ?, 1, datetime('now'))").run(name, keySha256).lastInsertRowid),
    list: async () => db.query('SELECT id, name, is_active, created_at FROM integrations ORDER BY id').all() as IntegrationRow[],
    revoke: async (id) => db.prepare('UPDATE integrations SET is_active = 0 WHERE id = ?').run(id).changes > 0,
    close: async () => db.close(),
    takesEffect: 'at once',
  }
}
