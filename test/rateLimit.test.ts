// Decisions 28 and 34: a token bucket per integration, described on every API
// response by the current draft's RateLimit-Policy and RateLimit fields and by
// the older RateLimit-Limit/-Remaining/-Reset trio; 429 with Retry-After in
// seconds until a request is allowed again, agreeing with both.
import { describe, expect, test } from 'bun:test'
import { RateLimiter } from '../src/http/rateLimit'
import { post, testApp, TEST_KEYS } from './helpers'

describe('rate limit', () => {
  test('a burst is allowed, then 429 with Retry-After until one token is back', async () => {
    let now = 1_000_000
    // 60 a minute = one token a second, bursts of 3
    const t = testApp({ rateLimitPerMin: 60, burst: 3, now: () => now })
    const remaining: (string | null)[] = []
    const fields: (string | null)[] = []
    for (let i = 0; i < 3; i++) {
      const r = await post(t, '/products/filter', {})
      expect(r.status).toBe(200)
      expect(r.res.headers.get('ratelimit-limit')).toBe('3') // the bucket: 3 at once, refilled at one a second
      expect(r.res.headers.get('ratelimit-policy')).toBe('"default";q=3;w=3')
      remaining.push(r.res.headers.get('ratelimit-remaining'))
      fields.push(r.res.headers.get('ratelimit'))
    }
    expect(remaining).toEqual(['2', '1', '0'])
    expect(fields).toEqual(['"default";r=2;t=1', '"default";r=1;t=1', '"default";r=0;t=1'])
    const limited = await post(t, '/products/filter', {})
    expect(limited.status).toBe(429)
    expect(limited.json).toEqual({ code: 429, status: false, message: 'Too many requests' })
    expect(limited.res.headers.get('retry-after')).toBe('1')
    expect(limited.res.headers.get('ratelimit-remaining')).toBe('0')
    expect(limited.res.headers.get('ratelimit-reset')).toBe('1') // agrees with Retry-After
    expect(limited.res.headers.get('ratelimit')).toBe('"default";r=0;t=1')
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
    expect(r.res.headers.get('ratelimit-limit')).toBe('100')
    expect(r.res.headers.get('ratelimit-remaining')).toBe('99')
    expect(r.res.headers.get('ratelimit-reset')).toBe('1') // the next token is back within 50 ms
    expect(r.res.headers.get('ratelimit-policy')).toBe('"default";q=100;w=5') // 1,200 a minute is 100 every 5 s
    expect(r.res.headers.get('ratelimit')).toBe('"default";r=99;t=1')
  })

  test('0 turns the limit off', async () => {
    const t = testApp({ rateLimitPerMin: 0, burst: 1 })
    for (let i = 0; i < 5; i++) expect((await post(t, '/products/filter', {})).status).toBe(200)
  })

  test('a slow bucket: Retry-After and the reset count the seconds until the next token, not until it is full', () => {
    let now = 0
    const limiter = new RateLimiter(6, 2, () => now) // one every 10 s, two at once
    expect(limiter.take(7)['RateLimit-Reset']).toBe('10')
    expect(limiter.take(7)['RateLimit']).toBe('"default";r=0;t=10')
    now += 2_500
    let refused: { headers?: Record<string, string> } = {}
    try {
      limiter.take(7)
    } catch (error) {
      refused = error as typeof refused
    }
    expect(refused.headers).toMatchObject({ 'Retry-After': '8', 'RateLimit-Reset': '8', RateLimit: '"default";r=0;t=8', 'RateLimit-Policy': '"default";q=2;w=20' })
    now += 7_500
    expect(limiter.take(7)['RateLimit-Remaining']).toBe('0')
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
