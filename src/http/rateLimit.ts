// Token bucket per integration (decision 28): perMinute tokens a minute, up to
// burst at once. Every API response reports the bucket (decision 34) twice: in
// the current draft's fields (draft-ietf-httpapi-ratelimit-headers),
//   RateLimit-Policy: "default";q=<burst>;w=<seconds to fill it from empty>
//   RateLimit: "default";r=<requests left now>;t=<seconds until the next one comes back>
// and in decision 28's older trio: RateLimit-Limit (the burst), -Remaining (r)
// and -Reset (t). On a 429, Retry-After is that same t.
//
// The buckets live in shared memory, so every serving worker thread draws from
// the same bucket (http/workers.ts passes `memory` to each). A bucket is one
// number, the time at which it is full again (the "theoretical arrival time" of
// GCRA, which is a token bucket written as one value), changed by one
// compare-and-swap: no lock that a dying thread could leave held, and no round
// trip to another thread.
import { ApiError, Message } from './errors'

/** Buckets the memory holds; integrations number under a hundred (master-contract §3). */
const SLOTS = 4096

export class RateLimiter {
  /** Pass this to another thread's RateLimiter to share its buckets. */
  readonly memory: SharedArrayBuffer
  /** per slot: microseconds (of `now`) at which the bucket is full again */
  private fullAt: BigInt64Array
  /** per slot: integration id + 1, or 0 while the slot is free */
  private owner: Int32Array
  /** whole microseconds one token takes to come back, so every figure below is exact */
  private interval: number

  constructor(
    readonly perMinute: number,
    readonly burst: number,
    private now: () => number = Date.now,
    memory?: SharedArrayBuffer,
  ) {
    this.memory = memory ?? new SharedArrayBuffer(SLOTS * 12)
    this.fullAt = new BigInt64Array(this.memory, 0, SLOTS)
    this.owner = new Int32Array(this.memory, SLOTS * 8, SLOTS)
    this.interval = perMinute > 0 ? Math.max(1, Math.round(60_000_000 / perMinute)) : 0
  }

  get enabled(): boolean {
    return this.perMinute > 0
  }

  /** Takes one token for the integration; throws 429 when none is left. */
  take(integrationId: number): Record<string, string> {
    const slot = this.slotOf(integrationId)
    const now = Math.round(this.now() * 1000)
    const nowBig = BigInt(now)
    const step = BigInt(this.interval)
    const capacity = this.burst * this.interval
    for (;;) {
      const full = Atomics.load(this.fullAt, slot)
      const next = (full > nowBig ? full : nowBig) + step
      if (Number(next) - now > capacity) return this.refuse(Number(full) - now)
      if (Atomics.compareExchange(this.fullAt, slot, full, next) === full) return this.headers(Number(next) - now)
    }
  }

  /** Headers for a bucket that is full again in `ahead` µs: it holds burst − ahead / interval tokens. */
  private headers(ahead: number): Record<string, string> {
    const behind = Math.max(0, ahead)
    const remaining = Math.floor((this.burst * this.interval - behind) / this.interval)
    // the next token comes back when `behind` falls to the multiple of the interval below it
    const next = behind === 0 ? 0 : Math.ceil((behind - (Math.ceil(behind / this.interval) - 1) * this.interval) / 1_000_000)
    const window = Math.max(1, Math.ceil((this.burst * this.interval) / 1_000_000))
    return {
      'RateLimit-Policy': `"default";q=${this.burst};w=${window}`,
      RateLimit: `"default";r=${remaining};t=${next}`,
      'RateLimit-Limit': String(this.burst),
      'RateLimit-Remaining': String(remaining),
      'RateLimit-Reset': String(next),
    }
  }

  private refuse(ahead: number): never {
    const headers = this.headers(ahead)
    throw new ApiError(429, Message.tooManyRequests, { ...headers, 'Retry-After': headers['RateLimit-Reset'] })
  }

  /** The integration's slot: open addressing, claimed by compare-and-swap. */
  private slotOf(integrationId: number): number {
    const tag = (integrationId + 1) | 0
    const home = Math.imul(integrationId, 0x9e3779b1) >>> 20 // top 12 bits: SLOTS = 4096
    for (let i = 0; i < SLOTS; i++) {
      const slot = (home + i) & (SLOTS - 1)
      const held = Atomics.load(this.owner, slot)
      if (held === tag) return slot
      if (held === 0) {
        const was = Atomics.compareExchange(this.owner, slot, 0, tag)
        if (was === 0 || was === tag) return slot
      }
    }
    return home // every slot taken: share a bucket, which limits more, never less
  }
}
