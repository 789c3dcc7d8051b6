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

/**
 * A TCP proxy in front of the master that lets `budget` bytes of answers
 * through, then either cuts the connection or stalls it (answers nothing more).
 */
export async function masterProxy(masterUrl: string, whenSpent: 'cut' | 'stall') {
  const { createServer, connect } = await import('node:net')
  const target = new URL(masterUrl)
  const state = { budget: Infinity }
  const proxy = createServer((client) => {
    const upstream = connect(Number(target.port || 3306), target.hostname)
    client.pipe(upstream)
    upstream.on('data', (chunk: Buffer) => {
      state.budget -= chunk.length
      if (state.budget >= 0) client.write(chunk)
      else if (whenSpent === 'cut') {
        client.destroy()
        upstream.destroy()
      }
    })
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const url = new URL(masterUrl)
  url.hostname = '127.0.0.1'
  url.port = String((proxy.address() as { port: number }).port)
  return { url: url.toString(), state, close: () => proxy.close() }
}
