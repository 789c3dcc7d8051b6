// Throwaway master databases for the sync tests: each test file gets its own
// database, dropped afterwards. They live on the MariaDB server MYSQL_TEST_URL
// names or, when it names none, on a server of the suite's own: a data folder
// made by mariadb-install-db in a temporary folder, served on a free port of
// 127.0.0.1 as the current user, and removed when the suite ends. So the tests
// need the MariaDB server package installed, and nothing set up by hand.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectMaster, type Master } from '../src/sync/master'

let server: Promise<string> | undefined

/** The URL of the MariaDB server the tests use; starts the suite's own the first time it is asked for. */
export function mariadb(): Promise<string> {
  return (server ??= process.env.MYSQL_TEST_URL ? Promise.resolve(process.env.MYSQL_TEST_URL) : ownServer())
}

const program = (name: string) => ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin'].map((d) => join(d, name)).find(existsSync)

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

async function ownServer(): Promise<string> {
  const installDb = program('mariadb-install-db')
  const mariadbd = program('mariadbd')
  if (!installDb || !mariadbd) throw new Error('the sync tests need MariaDB: install the mariadb-server package, or set MYSQL_TEST_URL to a server whose root needs no password')
  const dir = mkdtempSync(join(tmpdir(), 'listing-mariadb-'))
  const user = spawnSync('id', ['-un'], { encoding: 'utf8', timeout: 10_000 }).stdout.trim() // (os.userInfo says "unknown" under Bun here)
  // --no-defaults: the machine's own my.cnf (its user, sockets and logs) stays out of it
  const install = spawnSync(installDb, ['--no-defaults', `--datadir=${dir}/data`, `--user=${user}`, '--auth-root-authentication-method=normal', '--skip-test-db', '--skip-name-resolve'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 })
  // spawnSync blocks the test thread, where bun's own timeouts cannot fire: bound it (a full disk makes
  // MariaDB wait for space forever)
  if (install.status !== 0) throw new Error(`mariadb-install-db failed${install.error ? ` (${install.error.message})` : ''}: ${install.stderr || install.stdout}`)
  const port = await freePort()
  const args = [
    '--no-defaults', `--datadir=${dir}/data`, `--socket=${dir}/mariadb.sock`, `--port=${port}`, '--bind-address=127.0.0.1', `--user=${user}`,
    '--skip-name-resolve', '--skip-log-bin', '--innodb-buffer-pool-size=256M', '--innodb-flush-log-at-trx-commit=2', `--log-error=${dir}/error.log`, `--pid-file=${dir}/mariadb.pid`,
  ]
  // throwaway: a watcher shell kills the server and removes its folder once this test process is
  // gone, however it ended (bun test's own exit, a failure, a kill)
  // (and when the watcher itself is told to stop)
  const watcher = 'server="$1"; dir="$2"; shift 2; "$server" "$@" & pid=$!; trap \'kill -9 "$pid" 2>/dev/null; rm -rf "$dir"; exit 0\' HUP INT TERM; while kill -0 "$PPID" 2>/dev/null; do sleep 0.5; done; kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"'
  spawn('sh', ['-c', watcher, 'mariadb-watcher', mariadbd, dir, ...args], { stdio: 'ignore', detached: true }).unref()
  const running = () => existsSync(`${dir}/mariadb.pid`) || !existsSync(`${dir}/error.log`) || !readFileSync(`${dir}/error.log`, 'utf8').includes('[ERROR]')
  const url = `mysql://root@127.0.0.1:${port}/mysql`
  for (let i = 0; i < 150; i++) {
    try {
      const probe = await connectMaster(url)
      await probe.end()
      return url
    } catch {
      if (!running()) break
      await Bun.sleep(100)
    }
  }
  const log = existsSync(`${dir}/error.log`) ? readFileSync(`${dir}/error.log`, 'utf8').trim().split('\n').slice(-3).join(' | ') : 'no log'
  throw new Error(`the suite's own MariaDB server never answered on 127.0.0.1:${port}: ${log}`)
}

export async function throwawayMaster(): Promise<{ url: string; master: Master; drop(): Promise<void> }> {
  const admin = await connectMaster(await mariadb())
  const name = `listing_test_${randomBytes(4).toString('hex')}`
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`)
  const base = new URL(await mariadb())
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
