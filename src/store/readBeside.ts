// A value read from the store file beside the requests: on a connection of its
// own, in one read snapshot (its first statement opens it), as many steps a turn
// of the event loop as fit in TURN_MS, so a request waits at most about that long
// behind it. The callers' base (callerTotals.ts) and call_minutes' copy
// (minuteTotals.ts) are read this way; a store in memory, which no other
// connection sees, reads the same steps at once (snapshot.ts allAtOnce).
import { Database } from 'bun:sqlite'
import type { Steps } from './snapshot'

const TURN_MS = 1

/**
 * Runs `steps` over a connection of its own to the store file at `path`; `done` gets
 * their value, or null when the file went away or the store closed or changed under
 * the read (its caller then reads as before, and a later version tries again).
 */
export function readBeside<T>(path: string, steps: (reader: Database) => Steps<T>, done: (value: T | null) => void): void {
  let reader: Database | undefined
  let read: Steps<T>
  try {
    reader = new Database(path, { readwrite: true }) // never created here
    reader.run('PRAGMA query_only = 1')
    reader.run('BEGIN')
    read = steps(reader)
  } catch {
    reader?.close()
    return done(null)
  }
  const opened = reader
  const step = () => {
    let value: T | null = null
    try {
      const until = performance.now() + TURN_MS
      let next = read.next()
      while (!next.done && performance.now() < until) next = read.next()
      if (!next.done) return void setImmediate(step) // requests go on in between
      value = next.value
    } catch {
      // closed or changed under the reader: null
    }
    try {
      opened.close()
    } catch {
      // closed already
    }
    done(value)
  }
  setImmediate(step)
}
