// Which runs a snapshot holds: the store's own id and the newest run's seq, read
// once per data version. The change feed's cursors carry both (feed.ts), and the
// in-memory caller totals know by the seq which snapshot they stand for (callerTotals.ts).
import type { Database } from 'bun:sqlite'
import type { Store } from './open'
import { perVersion, PER_VERSION } from './snapshot'

export interface FeedState {
  /** this store's random id (migration 0006): cursors it issued say so */
  origin: string
  /** the newest run's seq, 0 before the first */
  head: number
}

export const feedState = perVersion((db: Store): FeedState => {
  const client = db.$client
  const origin = client.query<{ value: string }, []>(`${PER_VERSION} SELECT value FROM meta WHERE key = 'feed:origin'`).get()?.value ?? ''
  return { origin, head: headIn(client) }
})

/** The newest run's seq in the snapshot `client` reads (0 before the first): also for a connection that reads beside the requests (readBeside.ts). */
export const headIn = (client: Database): number =>
  client.query<{ seq: number | null }, []>(`${PER_VERSION} SELECT max(seq) AS seq FROM feed_syncs`).get()?.seq ?? 0

