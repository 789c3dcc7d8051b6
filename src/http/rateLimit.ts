// Token bucket per integration (decision 28): perMinute tokens a minute, up to
// burst at once. Reports the RateLimit-* headers every API response carries.
import { ApiError, Message } from './errors'

interface Bucket {
  tokens: number
  at: number
}

export class RateLimiter {
  private buckets = new Map<number, Bucket>()
  private perMs: number

  constructor(
    readonly perMinute: number,
    readonly burst: number,
    private now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000
  }

  get enabled(): boolean {
    return this.perMinute > 0
  }

  /** Takes one token for the integration; throws 429 when none is left. */
  take(integrationId: number): Record<string, string> {
    const now = this.now()
    const bucket = this.buckets.get(integrationId) ?? { tokens: this.burst, at: now }
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs)
    bucket.at = now
    this.buckets.set(integrationId, bucket)
    const allowed = bucket.tokens >= 1
    if (allowed) bucket.tokens -= 1
    const headers = {
      'RateLimit-Limit': String(this.perMinute),
      'RateLimit-Remaining': String(Math.floor(bucket.tokens)),
      // seconds until the bucket is full again
      'RateLimit-Reset': String(Math.ceil((this.burst - bucket.tokens) / this.perMs / 1000)),
    }
    if (!allowed) {
      // seconds until one whole token is back, not the window length
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000))
      throw new ApiError(429, Message.tooManyRequests, { ...headers, 'Retry-After': String(retryAfter) })
    }
    return headers
  }
}
