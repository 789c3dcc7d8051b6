// The master's api_integrations, for `keys`: the one place the service writes
// to the master, on an operator's command (master-contract §4.5).
import type { KeyRegistry } from '../keyRegistry'
import { connectMaster, queryRows } from './master'

export async function masterKeyRegistry(mysqlUrl: string): Promise<KeyRegistry> {
  const master = await connectMaster(mysqlUrl)
  return {
    async create(name, keySha256) {
      const [result] = (await master.query('INSERT INTO api_integrations (name, api_key_sha256, is_active) VALUES (?, ?, 1)', [name, keySha256])) as unknown as [{ insertId: number }]
      return result.insertId
    },
    list: () => queryRows(master, 'SELECT id, name, is_active, created_at FROM api_integrations ORDER BY id'),
    async revoke(id) {
      const [result] = (await master.query('UPDATE api_integrations SET is_active = 0 WHERE id = ?', [id])) as unknown as [{ affectedRows: number }]
      return result.affectedRows > 0
    },
    close: () => master.end(),
    takesEffect: 'at the next sync',
  }
}
