// The page start's search (store/passing.ts) against a plain scan of the running
// totals, over spreads that make interpolation guess badly: every target of each
// spread must find the first point that passes it, within the promised probes.
import { describe, expect, test } from 'bun:test'
import { firstPassing } from '../src/store/passing'

/** Running totals of points 0..n-1 from calls per point (0 = no row at that point). */
function spreadOf(calls: number[]) {
  const totals: number[] = []
  let sum = 0
  for (const c of calls) totals.push((sum += c))
  // the last row at or before p, as a rowid seek ORDER BY minute DESC LIMIT 1 finds it
  const probe = (p: number) => {
    for (let q = Math.min(p, calls.length - 1); q >= 0; q--) if (calls[q] > 0) return { at: q, total: totals[q], row: q }
    return null
  }
  return { totals, probe }
}

const rand = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)

const SPREADS: Record<string, number[]> = {
  even: Array.from({ length: 2000 }, () => 3),
  'random, with empty points': Array.from({ length: 3000 }, ((r) => () => (r() < 0.4 ? 0 : Math.floor(r() * 9)))(rand(7))),
  'growing over the range': Array.from({ length: 2000 }, (_, i) => Math.floor(i / 100)),
  'one burst in a quiet range': Array.from({ length: 5000 }, (_, i) => (i === 3001 ? 500 : i % 97 === 0 ? 1 : 0)),
  'all at the last point': Array.from({ length: 4096 }, (_, i) => (i === 4095 ? 40 : 0)),
  'all at the first point': Array.from({ length: 4096 }, (_, i) => (i === 0 ? 40 : 0)),
  'two crowds far apart': Array.from({ length: 6000 }, (_, i) => (i < 50 || i > 5950 ? 20 : 0)),
}

describe('the first point whose running total passes a target', () => {
  for (const [name, calls] of Object.entries(SPREADS)) {
    test(name, () => {
      const { totals, probe } = spreadOf(calls)
      // ranges: the whole spread, and one that starts past its first calls
      for (const from of [0, Math.floor(calls.length / 3)]) {
        const to = calls.length - 1
        const below = from === 0 ? 0 : totals[from - 1]
        const above = totals[to]
        const limit = 4 * Math.ceil(Math.log2(to - from + 2)) + 1
        let worst = 0
        for (let target = below; target < above; target++) {
          let probes = 0
          const { point, row } = firstPassing(from, to, below, above, target, (p) => {
            probes++
            expect(p).toBeGreaterThanOrEqual(from)
            expect(p).toBeLessThanOrEqual(to)
            return probe(p)
          })
          const expected = totals.findIndex((t, i) => i >= from && t > target)
          expect(point).toBe(expected)
          expect(row).toBe(expected) // the row at the point itself, for the page's start
          worst = Math.max(worst, probes)
        }
        expect(worst).toBeLessThanOrEqual(limit)
      }
    })
  }

  test('calls growing a hundredfold over the range cost at most two and a half times what halving costs', () => {
    // false position alone keeps guessing on the quiet side here; the halving after three poor steps bounds it
    const calls = Array.from({ length: 5386 }, (_, i) => Math.floor(Math.exp((i / 5386) * 12) / 1000))
    const { totals, probe } = spreadOf(calls)
    let worst = 0
    for (let target = 0; target < totals.at(-1)!; target += 7) {
      let probes = 0
      const { point } = firstPassing(0, calls.length - 1, 0, totals.at(-1)!, target, (p) => (probes++, probe(p)))
      expect(point).toBe(totals.findIndex((t) => t > target))
      worst = Math.max(worst, probes)
    }
    expect(worst).toBeLessThanOrEqual(Math.ceil(2.5 * Math.ceil(Math.log2(calls.length)))) // 30 here; 39 without the halving
  })

  test('an even spread takes a few probes where halving takes a dozen', () => {
    const { totals, probe } = spreadOf(Array.from({ length: 44_640 }, () => 20)) // a month of minutes
    let probes = 0
    for (let target = 0; target < totals.at(-1)!; target += 997) firstPassing(0, 44_639, 0, totals.at(-1)!, target, (p) => (probes++, probe(p)))
    expect(probes / Math.ceil(totals.at(-1)! / 997)).toBeLessThan(4)
  })
})
