// Starts Bun's HTTP server in front of the app: the access log and the metrics.
// A request that came without a Host (HTTP/1.0) has a relative URL in Bun, which
// Elysia cannot route; it is re-addressed to localhost. Nothing here reads the
// request's URL: on a request from the socket each read builds the string anew,
// and reading and parsing it cost more than the metrics themselves (the app
// notes the path it routed, accessLog.ts).
import type { Server } from 'bun'
import type { Logger } from '../log'
import { noteFor } from './accessLog'
import { createApp } from './app'
import type { ApiDeps } from './context'
import { failure, Message } from './errors'
import { Metrics } from './prometheus'

/** The same request addressed to localhost, for one without a Host header (its URL is then just a path). */
function withHost(request: Request): Request {
  const url = request.url
  return new Request(url.startsWith('/') ? `http://localhost${url}` : url, request)
}

interface ServerOptions {
  /** share the port with the other serving workers (SO_REUSEPORT; the kernel spreads connections) */
  reusePort?: boolean
  metrics?: Metrics
}

export function startServer(deps: ApiDeps, host: string, port: number, log: Logger, { reusePort = false, metrics = new Metrics(deps.db) }: ServerOptions = {}): Server<undefined> {
  return Bun.serve({
    hostname: host,
    port,
    reusePort,
    development: false,
    // the app answers 413 itself from Content-Length, or after reading 64 KiB of
    // a chunked body; Bun's own limit would answer outside the envelope
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch: requestHandler(deps, log, metrics),
    // last resort, should the app itself throw
    error: () => failure(500, Message.internal),
  })
}

/** What Bun.serve calls for each request: the app, with the access log and the metrics around it. */
export function requestHandler(deps: ApiDeps, log: Logger, metrics: Metrics): (request: Request) => Promise<Response> {
  const app = createApp(deps, log, metrics, { precompile: true }) // before it listens: no route's first request compiles it
  return async (raw) => {
    const started = performance.now()
    const request = raw.headers.get('host') ? raw : withHost(raw)
    const response = await app.handle(request)
    const note = noteFor(request)
    const path = note.path ?? ''
    metrics.observe(path, response.status, (performance.now() - started) / 1000)
    // one line a request; the path only (no query string), never a header or the body
    if (log.enabled('info')) {
      log.info('request', {
        request_id: note.requestId ?? null,
        integration: note.integration ?? null,
        method: request.method,
        path,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        rows: note.rows ?? null,
      })
    }
    return response
  }
}

/** Stop accepting, let requests in flight finish (up to 10 s), then close. */
export async function drainServer(server: Server<undefined>): Promise<void> {
  await Promise.race([server.stop(false), Bun.sleep(10_000)])
  await server.stop(true)
}
