// Starts Bun's HTTP server in front of the app: the access log, and keeping
// what reaches Elysia well-formed. Elysia finds the path by skipping 11
// characters of the URL, so a Host of three characters or fewer ("api") or no
// Host at all (HTTP/1.0) would misroute or throw; such requests are
// re-addressed to localhost.
import type { Server } from 'bun'
import type { Logger } from '../log'
import { noteFor } from './accessLog'
import { createApp } from './app'
import type { ApiDeps } from './context'
import { failure, Message } from './errors'
import { Metrics } from './prometheus'

/** The same request with a URL Elysia parses correctly. */
function normalizeRequest(request: Request): Request {
  const url = request.url
  const slash = url.startsWith('http') ? url.indexOf('/', url.indexOf('//') + 2) : 0
  if (slash >= 11) return request
  const path = slash < 0 ? '/' : url.slice(slash)
  return new Request(`http://localhost${path}`, request)
}

interface ServerOptions {
  /** share the port with the other serving workers (SO_REUSEPORT; the kernel spreads connections) */
  reusePort?: boolean
  metrics?: Metrics
}

export function startServer(deps: ApiDeps, host: string, port: number, log: Logger, { reusePort = false, metrics = new Metrics(deps.db) }: ServerOptions = {}): Server<undefined> {
  const app = createApp(deps, log, metrics)
  return Bun.serve({
    hostname: host,
    port,
    reusePort,
    development: false,
    // the app answers 413 itself from Content-Length, or after reading 64 KiB of
    // a chunked body; Bun's own limit would answer outside the envelope
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    async fetch(raw) {
      const started = performance.now()
      const request = normalizeRequest(raw)
      const response = await app.handle(request)
      const note = noteFor(request)
      const path = new URL(request.url).pathname
      metrics.observe(path, response.status, (performance.now() - started) / 1000)
      // one line a request; the path only (no query string), never a header or the body
      log.info('request', {
        request_id: response.headers.get('x-request-id'),
        integration: note.integration ?? null,
        method: request.method,
        path,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        rows: note.rows ?? null,
      })
      return response
    },
    // last resort, should the app itself throw
    error: () => failure(500, Message.internal),
  })
}

/** Stop accepting, let requests in flight finish (up to 10 s), then close. */
export async function drainServer(server: Server<undefined>): Promise<void> {
  await Promise.race([server.stop(false), Bun.sleep(10_000)])
  await server.stop(true)
}
