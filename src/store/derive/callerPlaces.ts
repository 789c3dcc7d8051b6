// A full load's places in each caller's sequence (prev_calls_count), counted as
// the calls pass in the master's order. The master sends calls by id, which
// follows time closely: a caller whose calls all come in time order gets each
// call's place right as it passes. A caller with a call out of order (logged
// late, or in the same second as its last, where call_log_id decides) is
// counted all the same and renumbered from calls_mobile once the calls are in
// place (renumberCallers). Sorting 20 million calls by caller for a window
// cost 40 s of a full load; counting them here costs a few seconds, and
// 16 bytes a slot of a table of 134 MB. Memory stays bounded: past the
// table's slots, or past MAX_DISORDERED callers out of order (a master filled
// in another order), counting stops and the load numbers the calls with the
// window.
import { renumberCallers } from './callers'
import type { Database } from 'bun:sqlite'

/** Slots of the callers' table at most: 8,388,608 slots, 134 MB, for up to 6.3 million callers. */
const MAX_SLOTS = 1 << 23
/** Callers out of order at most: renumbering one from calls_mobile costs a seek and a walk of its calls. */
const MAX_DISORDERED = 100_000

export class CallerPlaces {
  /**
   * Open addressing by mobile, four numbers a slot so that a look-up reads one cache line: the
   * mobile's low and high 32 bits (stored mobiles are at least 1: two zeros mark a free slot),
   * the caller's calls counted so far, and its last start counted.
   */
  private table: Uint32Array
  private callers = 0
  /** callers with a call out of order: their places are counted again after the sort */
  readonly disordered = new Set<number>()
  /** counting stopped (too many callers, or too many out of order): the window numbers the calls */
  gaveUp = false

  constructor(private limits = { slots: MAX_SLOTS, disordered: MAX_DISORDERED }) {
    // probing masks a slot's number: a size that is not a power of two would leave slots out, and loop
    if (!isPowerOfTwo(limits.slots)) throw new Error("the callers' table takes a power of two of slots")
    // all its slots at once: the system gives a page of memory the first time it is written, so a
    // load of few callers holds few pages, and one of many never holds an outgrown table beside it
    this.table = new Uint32Array(limits.slots * 4)
  }

  /** A table for a load of `calls` calls, known beforehand (fixtures, the demo): never full, and a few pages. */
  static forCalls(calls: number): CallerPlaces {
    let slots = 16
    while (slots * 3 < calls * 4 && slots < MAX_SLOTS) slots *= 2
    return new CallerPlaces({ slots, disordered: MAX_DISORDERED })
  }

  /** The call's place among its caller's calls counted so far (0 once counting stopped). */
  place(mobile: number, start: number | string): number {
    if (this.gaveUp) return 0
    if (this.table.length === 0) throw new Error('calls counted after counted()')
    const at = this.slotOf(mobile) * 4
    if (at < 0) return 0
    const table = this.table
    const n = table[at + 2]
    // only whole seconds after the last counted are surely later (1970 to 2106, what a Uint32Array
    // holds); text sorts after every number
    const seconds = typeof start === 'number' && Number.isInteger(start) && start >= 0 && start < 2 ** 32 ? start : -1
    const inOrder = seconds >= 0 && (n === 0 || seconds > table[at + 3])
    if (!inOrder) this.outOfOrder(mobile)
    else table[at + 3] = seconds
    table[at + 2] = n + 1
    return n
  }

  private outOfOrder(mobile: number): void {
    this.disordered.add(mobile)
    if (this.disordered.size > this.limits.disordered) this.giveUp()
  }

  /** The caller's slot, taken if it was free; -1 once counting stopped. */
  private slotOf(mobile: number): number {
    const low = mobile >>> 0
    const high = (mobile / 2 ** 32) >>> 0
    const slot = find(this.table, low, high)
    if (slot >= 0) return slot
    // three quarters full: probing would grow long
    if ((this.callers + 1) * 4 > this.limits.slots * 3) {
      this.giveUp()
      return -1
    }
    const free = -slot - 1
    this.table[free * 4] = low
    this.table[free * 4 + 1] = high
    this.callers++
    return free
  }

  private giveUp(): void {
    this.gaveUp = true
    this.disordered.clear()
    this.letGo()
  }

  /**
   * Each caller counted and its calls, in mobile order (the callers table's key), while every call
   * is counted; null once counting stopped. A sort of the callers' mobiles here: the calls' GROUP BY
   * mobile sorts every call (13 s of a 20-million-call load). Before counted(), which lets the table go.
   */
  totals(): { mobiles: Float64Array; calls: Uint32Array } | null {
    if (this.gaveUp) return null
    const table = this.table
    const mobiles = new Float64Array(this.callers)
    for (let at = 0, k = 0; at < table.length; at += 4) if (table[at] !== 0 || table[at + 1] !== 0) mobiles[k++] = table[at + 1] * 2 ** 32 + table[at]
    mobiles.sort()
    const calls = new Uint32Array(mobiles.length)
    for (let k = 0; k < mobiles.length; k++) calls[k] = table[find(table, mobiles[k] >>> 0, (mobiles[k] / 2 ** 32) >>> 0) * 4 + 2]
    return { mobiles, calls }
  }

  /** Every call was counted: the table is let go. Whether the places counted stand (else the window numbers the calls). */
  counted(): boolean {
    this.letGo()
    return !this.gaveUp
  }

  private letGo(): void {
    this.table = new Uint32Array(0)
  }

  /**
   * Once the calls are in place with the places counted here, and calls_mobile is built: each
   * caller out of order numbered again from its first call.
   */
  renumberDisordered(client: Database, seq: number): void {
    if (this.disordered.size === 0) return // none, or counting stopped (giveUp empties it)
    const fromFirst = { start: -Infinity, callLogId: '', before: 0 }
    renumberCallers(client, new Map([...this.disordered].map((mobile) => [mobile, fromFirst])), seq)
  }
}

const isPowerOfTwo = (n: number) => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0

/** The slot holding a mobile (its 32-bit halves), or -(the free slot where it would go) - 1. */
function find(table: Uint32Array, low: number, high: number): number {
  const mask = table.length / 4 - 1
  for (let slot = hash(low, high) & mask; ; slot = (slot + 1) & mask) {
    const at = slot * 4
    if (table[at] === low && table[at + 1] === high) return slot
    if (table[at] === 0 && table[at + 1] === 0) return -slot - 1
  }
}

/** A stored mobile (up to 11 digits) spread over 32 bits: its two halves, mixed as MurmurHash3 finishes. */
function hash(low: number, high: number): number {
  let x = low ^ Math.imul(high, 0x9e3779b1)
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b)
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
  return x ^ (x >>> 16)
}
