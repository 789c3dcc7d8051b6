// The master MySQL (or MariaDB) connection, through mysql2: its query stream
// reads any number of rows in bounded memory (Bun's SQL client buffers whole
// results). DATETIME and DATE come back as the stored text, never as a JS Date,
// so IST wall-clock times are copied exactly whatever the machine's TZ.
import mysql, { type Connection, type RowDataPacket } from 'mysql2/promise'
import type { Connection as CallbackConnection } from 'mysql2'
import { masterOptions } from './masterUrl'

export type Master = Connection

export async function connectMaster(url: string): Promise<Master> {
  const fromUrl = masterOptions(url)
  return mysql.createConnection({
    ...fromUrl,
    // what the copy relies on, whatever the URL says
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    connectTimeout: fromUrl.connectTimeout ?? 10_000,
    multipleStatements: false,
    charset: 'utf8mb4',
  })
}

interface Socket {
  setTimeout(ms: number, cb?: () => void): void
  destroy(e?: Error): void
}
const socketOf = (master: Master) => (master as unknown as { connection: { stream?: Socket } }).connection.stream
const stallClocks = new WeakMap<Master, () => void>()

/**
 * A master that sends nothing for `ms` while the run waits for it fails the run
 * instead of hanging it. Only waiting counts: the clock restarts whenever the
 * run comes back from its own work (restartStallClock), so a long SQLite step
 * cannot be mistaken for a silent master.
 */
export function failOnStall(master: Master, ms: number): void {
  const socket = socketOf(master)
  if (!socket) return
  socket.setTimeout(ms, () => socket.destroy(new Error(`the master stopped answering for ${Math.round(ms / 1000)} s`)))
  stallClocks.set(master, () => socket.setTimeout(ms))
}

/**
 * Closes a connection at once, a query in flight or not: mysql2's destroy() alone half-closes
 * the socket, and a pending query then waits for its answer (the process with it).
 */
export function dropConnection(master: Master): void {
  socketOf(master)?.destroy(new Error('connection dropped'))
  master.destroy()
}

/** The run waits for something other than this master (its clock restarts with restartStallClock). */
export function pauseStallClock(master: Master): void {
  if (stallClocks.has(master)) socketOf(master)?.setTimeout(0)
}

/** The run is back from its own work and waits for the master again. */
export function restartStallClock(master: Master): void {
  stallClocks.get(master)?.()
}

/** Starts a read-only REPEATABLE READ transaction: every read of the run sees one snapshot. */
export async function beginSnapshot(master: Master): Promise<void> {
  await master.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ')
  await master.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY')
}

/** The master's own clock, `YYYY-MM-DD HH:MM:SS`: read inside the snapshot, it says when the snapshot was taken. */
export async function masterNow(master: Master): Promise<string> {
  const [rows] = await master.query("SELECT DATE_FORMAT(NOW(), '%Y-%m-%d %H:%i:%s') AS now")
  return (rows as { now: string }[])[0].now
}

/**
 * Streams the rows of a query, a batch at a time. The socket is paused while
 * the caller handles a batch, so memory stays bounded by the batch size. Built
 * on the query's own events: mysql2's stream() wrapper does not pass on a lost
 * connection, and the run would hang instead of failing.
 */
export async function* streamRows<T>(master: Master, sql: string, params: unknown[] = [], batchSize = 5000): AsyncGenerator<T[]> {
  const raw = (master as unknown as { connection: CallbackConnection }).connection
  const query = raw.query({ sql, values: params })
  const ready: T[][] = []
  let batch: T[] = []
  let ended = false
  let failure: Error | undefined
  let wake: (() => void) | undefined
  const notify = () => {
    wake?.()
    wake = undefined
  }
  query.on('result', (row) => {
    batch.push(row as T)
    if (batch.length >= batchSize) {
      ready.push(batch)
      batch = []
      raw.pause()
      notify()
    }
  })
  query.on('end', () => {
    if (batch.length) ready.push(batch)
    ended = true
    notify()
  })
  const fail = (error?: Error) => {
    failure ??= error ?? new Error('the master closed the connection')
    notify()
  }
  const lost = () => fail(new Error('the connection to the master was lost'))
  // a lost connection is reported on the connection, not always on the query
  query.on('error', fail)
  raw.on('error', fail)
  raw.on('end', lost)
  try {
    while (true) {
      if (failure) throw failure
      const next = ready.shift()
      if (next) {
        yield next
        restartStallClock(master) // the caller's work on the batch was not the master's silence
        if (ready.length === 0 && !ended) raw.resume()
        continue
      }
      if (ended) return
      await new Promise<void>((resolve) => (wake = resolve))
    }
  } finally {
    raw.off('error', fail)
    raw.off('end', lost)
  }
}

export async function queryRows<T>(master: Master, sql: string, params: unknown[] = []): Promise<T[]> {
  const [rows] = await master.query<RowDataPacket[]>(sql, params)
  return rows as T[]
}
