// Where a page starts in running totals: the first point (a minute) whose
// running total passes a count. Calls spread about evenly over time, so the
// point is guessed from the totals at the ends of what is left (interpolation)
// rather than halved: a month's page start took 16 seeks by halving and about
// 2 this way. Where the spread is uneven, guesses keep landing on one side; each
// time that happens again the far end counts for half as much (the Illinois
// rule of false position). A span that three steps did not halve is halved
// next, so however the calls are spread (a burst, a quiet year) a search takes
// at most four probes for each halving. At scale 1, over the benchmark's pages:
// a month 2.0 probes (16.6 halving), a year's last pages 3.0 (20), a year's
// missed calls 6.4 (20), a day 1.0 (12).

/** A running total read at a point: the total through it, and the point of the row it came from (at most the point asked). */
export interface TotalAt<R> {
  at: number
  total: number
  row: R
}

/**
 * The first point in [lo, hi] whose running total passes `target`, and its row.
 * `below` is the total through lo − 1 (at most `target`), `above` the total
 * through hi (more than `target`). `probe(p)` reads the total through point p
 * (null: no row at or before p, a total of 0).
 */
export function firstPassing<R>(lo: number, hi: number, below: number, above: number, target: number, probe: (point: number) => TotalAt<R> | null): { point: number; row: R | null } {
  let found: TotalAt<R> | null = null // the probe that set hi, when its row lies at hi
  // how far each end is from the target, as the guesses weigh it (halved while the other end keeps moving)
  let need = target + 1 - below
  let spare = above - target - 1
  let side = 0 // which end the last steps moved: +1 lo, −1 hi
  let checked = hi - lo // the span three steps ago
  let steps = 0
  let halve = false
  while (lo < hi) {
    const mid = halve ? Math.floor((lo + hi) / 2) : Math.min(hi - 1, Math.max(lo, lo - 1 + Math.ceil((need / (need + spare)) * (hi - lo + 1))))
    const read = probe(mid)
    const total = read?.total ?? 0
    if (total > target) {
      // its row's point passes as well, and lies at lo or after (the total through lo − 1 does not pass)
      hi = Math.max(lo, read!.at)
      spare = total - target - 1
      found = read
      if (side === -1) need /= 2
      side = -1
    } else {
      lo = mid + 1
      need = target + 1 - total
      if (side === 1) spare /= 2
      side = 1
    }
    halve = false
    if (++steps % 3 === 0) {
      halve = hi - lo > checked / 2
      checked = hi - lo
    }
  }
  return { point: lo, row: found !== null && found.at === lo ? found.row : (probe(lo)?.row ?? null) }
}
