// Decision 33: an answer over 1 KiB is compressed when the request's
// Accept-Encoding offers zstd or gzip (zstd preferred: smaller, and as fast);
// otherwise it leaves as it is. The JSON is the same either way.
const COMPRESS_OVER_BYTES = 1024

export type Encoding = 'zstd' | 'gzip'

/** The encoding to answer with, from an Accept-Encoding header: an offered coding whose q is above 0. */
export function chooseEncoding(acceptEncoding: string | null): Encoding | undefined {
  if (!acceptEncoding) return undefined
  const q: Record<string, number> = {}
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const value = weight === undefined ? 1 : Number(weight.slice(2))
    if (name) q[name] = Number.isFinite(value) ? value : 0
  }
  const offered = (coding: Encoding) => (q[coding] ?? q['*'] ?? 0) > 0
  return offered('zstd') ? 'zstd' : offered('gzip') ? 'gzip' : undefined
}

/** The body to send and the headers that say how; small bodies and requests that offer neither coding stay plain. */
export function encodeBody(json: string | Uint8Array<ArrayBuffer>, acceptEncoding: string | null): { body: string | Uint8Array; headers: Record<string, string> } {
  const vary = { vary: 'Accept-Encoding' }
  const encoding = chooseEncoding(acceptEncoding)
  const size = typeof json === 'string' ? Buffer.byteLength(json, 'utf8') : json.length
  if (!encoding || size <= COMPRESS_OVER_BYTES) return { body: json, headers: vary }
  const bytes = typeof json === 'string' ? Buffer.from(json, 'utf8') : json
  const body = encoding === 'zstd' ? Bun.zstdCompressSync(bytes, { level: 1 }) : Bun.gzipSync(bytes, { level: 1 })
  return { body, headers: { ...vary, 'content-encoding': encoding } }
}
