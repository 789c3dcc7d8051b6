// Decision 28: a token bucket per integration, RateLimit-* on every API
// response, 429 with Retry-After in seconds until a request is allowed again.
import { describe, expect, test } from 'bun:test'
import { RateLimiter } from '../src/http/rateLimit'
import { post, testApp, TEST_KEYS } from './helpers'

describe('rate limit', () => {
  test('a burst is allowed, then 429 with Retry-After until one token is back', async () => {
    let now = 1_000_000
    // 60 a minute = one token a second, bursts of 3
    const t = testApp({ rateLimitPerMin: 60, burst: 3, now: () => now })
    const remaining: (string | null)[] = []
    for (let i = 0; i < 3; i++) {
      const r = await post(t, '/products/filter', {})
      expect(r.status).toBe(200)
      expect(r.res.headers.get('ratelimit-limit')).toBe('60')
      remaining.push(r.res.headers.get('ratelimit-remaining'))
    }
    expect(remaining).toEqual(['2', '1', '0'])
    const limited = await post(t, '/products/filter', {})
    expect(limited.status).toBe(429)
    expect(limited.json).toEqual({ code: 429, status: false, message: 'Too many requests' })
    expect(limited.res.headers.get('retry-after')).toBe('1')
    expect(limited.res.headers.get('ratelimit-remaining')).toBe('0')
    now += 400 // 0.4 tokens back: still 1 s to wait (rounded up), not the window length
    expect((await post(t, '/products/filter', {})).res.headers.get('retry-after')).toBe('1')
    now += 1000
    expect((await post(t, '/products/filter', {})).status).toBe(200)
  })

  test('each integration has its own bucket', async () => {
    const now = 5_000
    const t = testApp({ rateLimitPerMin: 60, burst: 1, now: () => now })
    expect((await post(t, '/products/filter', {})).status).toBe(200)
    expect((await post(t, '/products/filter', {})).status).toBe(429)
    expect((await post(t, '/products/filter', {}, { 'x-api-key': TEST_KEYS.beta })).status).toBe(200)
  })

  test('RateLimit headers ride on failures after authentication too', async () => {
    const t = testApp({ rateLimitPerMin: 1200, burst: 100 })
    const r = await post(t, '/listing/listingtiles', { from_date: '2030-01-01', to_date: '2030-01-02' })
    expect(r.status).toBe(404)
    expect(r.res.headers.get('ratelimit-limit')).toBe('1200')
    expect(r.res.headers.get('ratelimit-remaining')).toBe('99')
    expect(Number(r.res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1)
  })

  test('0 turns the limit off', async () => {
    const t = testApp({ rateLimitPerMin: 0, burst: 1 })
    for (let i = 0; i < 5; i++) expect((await post(t, '/products/filter', {})).status).toBe(200)
  })

  test('the bucket refills at the configured rate up to the burst', () => {
    let now = 0
    const limiter = new RateLimiter(120, 2, () => now) // two a second
    limiter.take(1)
    limiter.take(1)
    expect(() => limiter.take(1)).toThrow('Too many requests')
    now += 500
    expect(limiter.take(1)['RateLimit-Remaining']).toBe('0')
    now += 60_000
    expect(limiter.take(1)['RateLimit-Remaining']).toBe('1') // capped at the burst of 2, minus this one
  })
})
