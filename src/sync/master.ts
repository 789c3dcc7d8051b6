// The master MySQL (or MariaDB) connection, through mysql2: its query stream
// reads any number of rows in bounded memory (Bun's SQL client buffers whole
// results). DATETIME and DATE come back as the stored text, never as a JS Date,
// so IST wall-clock times are copied exactly whatever the machine's TZ.
import mysql, { type Connection, type RowDataPacket } from 'mysql2/promise'
import type { Connection as CallbackConnection } from 'mysql2'

export type Master = Connection

export async function connectMaster(url: string, options: { connectTimeoutMs?: number } = {}): Promise<Master> {
  const u = new URL(url)
  return mysql.createConnection({
    host: u.hostname,
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.replace(/^\//, '')),
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    multipleStatements: false,
    charset: 'utf8mb4',
  })
}

/** Starts a read-only REPEATABLE READ transaction: every read of the run sees one snapshot. */
export async function beginSnapshot(master: Master): Promise<void> {
  await master.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ')
  await master.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY')
}

/**
 * Streams the rows of a query, a batch at a time, pausing the socket while the
 * caller handles a batch: memory stays bounded by the batch size.
 */
export async function* streamRows<T>(master: Master, sql: string, params: unknown[] = [], batchSize = 5000): AsyncGenerator<T[]> {
  const raw = (master as unknown as { connection: CallbackConnection }).connection
  const stream = raw.query({ sql, values: params, rowsAsArray: false }).stream({ highWaterMark: batchSize })
  let batch: T[] = []
  for await (const row of stream as AsyncIterable<T>) {
    batch.push(row)
    if (batch.length >= batchSize) {
      yield batch
      batch = []
    }
  }
  if (batch.length) yield batch
}

export async function queryRows<T>(master: Master, sql: string, params: unknown[] = []): Promise<T[]> {
  const [rows] = await master.query<RowDataPacket[]>(sql, params)
  return rows as T[]
}
