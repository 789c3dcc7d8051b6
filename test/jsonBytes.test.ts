// The answer writer (src/http/jsonBytes.ts): the bytes it writes are the bytes
// JSON.stringify's text encodes to, and an answer's Response keeps its own copy
// while the next answer reuses the buffer.
import { describe, expect, test } from 'bun:test'
import { JsonBytes, utf8 } from '../src/http/jsonBytes'

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

describe('JsonBytes', () => {
  const numbers = [
    0, -0, 1, 7, 9, 10, 11, 99, 100, 101, 999, 1000, 123456789, 1_000_000_000, 2_147_483_647, 2_147_483_648, 4_294_967_296, 123_456_789_012,
    Number.MAX_SAFE_INTEGER, -1, -10, -987654321, -Number.MAX_SAFE_INTEGER,
    2 ** 53 + 2, 1e21, -1e21, 0.5, -2.25, 1 / 3, 1e-7, NaN, Infinity, -Infinity,
  ]
  test.each(numbers.map((n) => [n]))('%p is written as JSON.stringify writes it', (n) => {
    const out = new JsonBytes().begin()
    out.number(n)
    expect(decode(out.written())).toBe(JSON.stringify(n))
  })

  test('text, bytes and single bytes in order, with text outside ASCII encoded as UTF-8', () => {
    const out = new JsonBytes().begin()
    out.byte(123) // {
    out.text(JSON.stringify('naïve 東京 😀').replace(/^/, '"s":'))
    out.bytes(utf8(',"n":'))
    out.number(42)
    out.byte(125) // }
    expect(JSON.parse(decode(out.written()))).toEqual({ s: 'naïve 東京 😀', n: 42 })
  })

  test('an answer larger than the buffer grows it and keeps what was written before', () => {
    const out = new JsonBytes().begin()
    const parts: string[] = []
    for (let i = 0; i < 60_000; i++) {
      const part = `"${'é'.repeat(i % 7)}${i}",`
      parts.push(part)
      if (i % 2) out.text(part)
      else out.bytes(utf8(part))
      out.number(i)
      parts.push(String(i))
    }
    expect(decode(out.written())).toBe(parts.join(''))
    expect(out.written().length).toBeGreaterThan(256 * 1024)
  })

  test('begin drops the last answer', () => {
    const out = new JsonBytes().begin()
    out.text('{"a":1}')
    out.begin().text('[]')
    expect(decode(out.written())).toBe('[]')
  })

  test('a Response made from what was written keeps its bytes while the buffer is reused', async () => {
    const out = new JsonBytes().begin()
    out.text('{"first":true}')
    const first = new Response(out.written())
    out.begin().text('{"other":12345}')
    const second = new Response(out.written())
    expect(await first.text()).toBe('{"first":true}')
    expect(await second.text()).toBe('{"other":12345}')
  })
})
