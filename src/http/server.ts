// Starts Bun's HTTP server in front of the app.
import type { ApiDeps } from './context'
import { createApp } from './app'

export function startServer(deps: ApiDeps, host: string, port: number) {
  const app = createApp(deps)
  return Bun.serve({
    hostname: host,
    port,
    // our own 64 KiB check answers 413 in the envelope; this only bounds memory
    maxRequestBodySize: 1024 * 1024,
    fetch: (request) => app.handle(request),
  })
}
