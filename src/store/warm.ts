// What a serving worker builds before it listens: the directory, the catalogue
// and the start of the caller totals' base and of call_minutes' copy. Otherwise its first request builds
// them (about 75 ms at production size), and every request behind it waits.
import { callerTotals } from './callerTotals'
import { minuteTotals } from './minuteTotals'
import { storeFaces } from './directory'
import type { Store } from './open'
import { productPage } from './products'
import { readSnapshot } from './snapshot'

export function warmUp(db: Store): void {
  readSnapshot(db, () => {
    storeFaces(db)
    productPage(db, {}, 1, 0)
    callerTotals(db) // starts the base: a file store's is read a slice a turn while the worker already answers
    minuteTotals(db) // the same for call_minutes' copy
  })
}
