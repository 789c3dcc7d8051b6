// Starts Bun's HTTP server in front of the app, and keeps what reaches Elysia
// well-formed: Elysia finds the path by skipping 11 characters of the URL, so
// a Host of three characters or fewer ("api") or no Host at all (HTTP/1.0)
// would misroute or throw; such requests are re-addressed to localhost.
import type { Server } from 'bun'
import { createApp } from './app'
import type { ApiDeps } from './context'
import { failure, Message } from './errors'

/** The same request with a URL Elysia parses correctly. */
export function normalizeRequest(request: Request): Request {
  const url = request.url
  const slash = url.startsWith('http') ? url.indexOf('/', url.indexOf('//') + 2) : 0
  if (slash >= 11) return request
  const path = slash < 0 ? '/' : url.slice(slash)
  return new Request(`http://localhost${path}`, request)
}

export function startServer(deps: ApiDeps, host: string, port: number): Server<undefined> {
  const app = createApp(deps)
  return Bun.serve({
    hostname: host,
    port,
    development: false,
    // the app answers 413 itself from Content-Length, or after reading 64 KiB of
    // a chunked body; Bun's own limit would answer outside the envelope
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch: (request) => app.handle(normalizeRequest(request)),
    // last resort, should the app itself throw
    error: () => failure(500, Message.internal),
  })
}
