// The real HTTP server (Bun.serve in front of the app), spoken to over a raw
// socket: what in-process tests cannot see — odd Host headers, HTTP/1.0,
// bodies larger than Bun's own limits — still answers in the envelope.
import { afterAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { startServer } from '../src/http/server'
import { createLogger } from '../src/log'
import { testApp, TEST_KEYS } from './helpers'

const { deps } = testApp()
const lines: any[] = []
const server = startServer(deps, '127.0.0.1', 0, createLogger('info', (line) => lines.push(JSON.parse(line))))
afterAll(() => server.stop(true))

/** Sends raw bytes, returns status, headers (lower-case) and body of the response. */
function raw(request: string | Buffer, extra?: Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port!, '127.0.0.1')
    const parts: Buffer[] = []
    socket.on('data', (d: Buffer) => parts.push(d))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(parts).toString('utf8')
      const [head, ...rest] = text.split('\r\n\r\n')
      const [statusLine, ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') })
    })
    socket.write(request)
    if (extra) socket.write(extra)
    socket.end()
  })
}

const BODY = JSON.stringify({ from_date: '2025-01-01', to_date: '2025-01-31', sap_code: 'D100' })
const request = (headers: string[], body = BODY, version = '1.1') =>
  [`POST /listing/dealer HTTP/${version}`, ...headers, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close', '', body].join('\r\n')

describe('the HTTP server', () => {
  test('answers a normal request', async () => {
    const r = await raw(request([`Host: 127.0.0.1:${server.port}`, `X-API-KEY: ${TEST_KEYS.acme}`]))
    expect(r.status).toBe(200)
    expect(JSON.parse(r.body).returned).toBe(2)
  })

  test.each(['api', 'a.b', 'x', 'db1:80'])('routes a short Host header (%s)', async (host) => {
    const r = await raw(request([`Host: ${host}`, `X-API-KEY: ${TEST_KEYS.acme}`]))
    expect(r.status).toBe(200)
    expect(JSON.parse(r.body).sap_code).toBe('D100')
  })

  test('answers HTTP/1.0 without a Host header in the envelope', async () => {
    const r = await raw(request([`X-API-KEY: ${TEST_KEYS.acme}`], BODY, '1.0'))
    expect(r.status).toBe(200)
    const notFound = await raw('GET /nope HTTP/1.0\r\n\r\n')
    expect(notFound.status).toBe(404)
    expect(JSON.parse(notFound.body)).toEqual({ code: 404, status: false, message: 'Not found' })
  })

  test('a declared body of 2 MiB is 413 in the envelope, without reading it', async () => {
    const head = [`POST /listing/dealer HTTP/1.1`, `Host: localhost`, `X-API-KEY: ${TEST_KEYS.acme}`, `Content-Length: ${2 * 1024 * 1024}`, 'Connection: close', '', ''].join('\r\n')
    const r = await raw(head, Buffer.alloc(256 * 1024, 0x20))
    expect(r.status).toBe(413)
    expect(JSON.parse(r.body)).toEqual({ code: 413, status: false, message: 'Payload too large' })
    expect(r.headers['x-request-id']).toBeTruthy()
  })

  test('a chunked body past 64 KiB is 413 in the envelope', async () => {
    const chunk = Buffer.alloc(40 * 1024, 0x20)
    const chunked = Buffer.concat([
      Buffer.from([`POST /listing/dealer HTTP/1.1`, `Host: localhost`, `X-API-KEY: ${TEST_KEYS.acme}`, 'Transfer-Encoding: chunked', 'Connection: close', '', ''].join('\r\n')),
      Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'),
      Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'),
      Buffer.from('0\r\n\r\n'),
    ])
    const r = await raw(chunked)
    expect(r.status).toBe(413)
    expect(JSON.parse(r.body).message).toBe('Payload too large')
  })

  test('a small chunked JSON body is read', async () => {
    const chunked = [`POST /listing/dealer HTTP/1.1`, `Host: localhost`, `X-API-KEY: ${TEST_KEYS.acme}`, 'Transfer-Encoding: chunked', 'Connection: close', '', `${Buffer.byteLength(BODY).toString(16)}`, BODY, '0', '', ''].join('\r\n')
    const r = await raw(chunked)
    expect(r.status).toBe(200)
  })
})

describe('/metrics', () => {
  test('counts requests by endpoint and status, in Prometheus text, with no data or keys', async () => {
    await fetch(`http://127.0.0.1:${server.port}/listing/dealer`, { method: 'POST', headers: { 'x-api-key': TEST_KEYS.acme }, body: BODY })
    await fetch(`http://127.0.0.1:${server.port}/listing/dealer`, { method: 'POST', body: BODY })
    await fetch(`http://127.0.0.1:${server.port}/some/random/path`)
    const res = await fetch(`http://127.0.0.1:${server.port}/metrics`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/plain')
    const text = await res.text()
    expect(text).toMatch(/listing_api_requests_total\{endpoint="\/listing\/dealer",status="200"\} [1-9]/)
    expect(text).toMatch(/listing_api_requests_total\{endpoint="\/listing\/dealer",status="401"\} 1/)
    expect(text).toMatch(/listing_api_requests_total\{endpoint="other",status="404"\} [1-9]/)
    expect(text).toContain('listing_api_request_duration_seconds_bucket{le="0.005",endpoint="/listing/dealer",status="200"}')
    expect(text).toContain('# TYPE listing_api_rate_limited_total counter')
    expect(text).toContain('# TYPE listing_api_data_age_seconds gauge')
    // a store never synced: its data is infinitely old and its last success never happened, so alerts fire
    expect(text).toContain('listing_api_data_age_seconds +Inf')
    expect(text).toContain('listing_api_sync_last_success_timestamp_seconds 0')
    expect(text).toContain('# TYPE listing_api_sync_runs_total counter')
    expect(text).toContain('listing_api_caller_totals_in_memory 1\n') // a store in memory reads its base at once
    expect(text).toContain('listing_api_call_minutes_in_memory 1\n') // and its copy of call_minutes
    expect(text).toMatch(/listing_api_build_info\{version="\d+\.\d+\.\d+",bun="\d+\.\d+\.\d+"\} 1/)
    expect(text).toMatch(/process_resident_memory_bytes \d+/)
    expect(text).toContain('# TYPE listing_api_unexpected_errors_total counter')
    expect(text).not.toContain(TEST_KEYS.acme)
    expect(text).not.toContain('Alpha Tiles')
  })
})
