// An answer's JSON written straight into UTF-8 bytes, in one buffer that every
// answer of this worker reuses. A bulk answer built as a string (the 150-dealer
// employee lookup: 4,800 pieces joined) left a pieces array, a string for every
// number and the joined text to collect, and a collection then landed on about one
// request in a hundred (docs/benchmarks.md, twenty-third session). Here the bytes
// are the only copy until the Response takes its own: a Response copies the bytes
// of the view it is given (Fetch, "extract a body"), so the buffer is free again as
// soon as the answer's Response exists. Answers are written synchronously, one at a time.

const encoder = new TextEncoder()

/** Text encoded once, for the parts of an answer that do not change. */
export const utf8 = (text: string): Uint8Array => encoder.encode(text)

/** The largest integer written digit by digit; others go through JSON's own writing. */
const EXACT = Number.MAX_SAFE_INTEGER

export class JsonBytes {
  private buf: Uint8Array<ArrayBuffer> = new Uint8Array(256 * 1024)
  private at = 0

  /** Starts an answer: whatever the last one wrote is dropped. */
  begin(): this {
    this.at = 0
    return this
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.at + bytes) size *= 2
    const grown = new Uint8Array(size)
    grown.set(this.buf.subarray(0, this.at))
    this.buf = grown
  }

  /** Bytes encoded already (utf8, or a fragment kept between answers). */
  bytes(part: Uint8Array): void {
    this.room(part.length)
    this.buf.set(part, this.at)
    this.at += part.length
  }

  /** One ASCII character, by its code. */
  byte(code: number): void {
    this.room(1)
    this.buf[this.at++] = code
  }

  /** Text as it stands (JSON already, or a string's contents escaped already): encoded here. */
  text(part: string): void {
    this.room(part.length * 3) // UTF-16 unit → at most 3 UTF-8 bytes
    this.at += encoder.encodeInto(part, this.buf.subarray(this.at)).written
  }

  /** A number as JSON.stringify writes it: integers digit by digit, with no string between. */
  number(n: number): void {
    if (!Number.isInteger(n) || n > EXACT || n < -EXACT) return this.text(JSON.stringify(n))
    this.room(17)
    const buf = this.buf
    if (n < 0) {
      buf[this.at++] = 45 // '-'
      n = -n
    }
    let digits = 1
    for (let p = 10; p <= n; p *= 10) digits++
    let i = (this.at += digits)
    // the low digits of a number past int32 on doubles, until the rest fits int32
    while (n > 0x7fff_ffff) {
      const q = Math.floor(n / 10)
      buf[--i] = 48 + (n - q * 10)
      n = q
    }
    // the rest in int32 arithmetic, three times faster than Math.floor on doubles
    do {
      const q = (n / 10) | 0
      buf[--i] = 48 + (n - q * 10)
      n = q
    } while (n > 0)
  }

  /** What this answer wrote: valid until the next begins, so hand it to a Response (which copies) at once. */
  written(): Uint8Array<ArrayBuffer> {
    return this.buf.subarray(0, this.at)
  }
}
