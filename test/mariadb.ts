// Throwaway master databases on the local MariaDB for sync tests: each test
// file gets its own database, dropped afterwards.
import { randomBytes } from 'node:crypto'
import { connectMaster, type Master } from '../src/sync/master'

export const MARIADB = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test'

export async function throwawayMaster(): Promise<{ url: string; master: Master; drop(): Promise<void> }> {
  const admin = await connectMaster(MARIADB)
  const name = `listing_test_${randomBytes(4).toString('hex')}`
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`)
  const base = new URL(MARIADB)
  base.pathname = `/${name}`
  const url = base.toString()
  const master = await connectMaster(url)
  return {
    url,
    master,
    async drop() {
      await master.end()
      await admin.query(`DROP DATABASE IF EXISTS ${name}`)
      await admin.end()
    },
  }
}
