// Composition root: every route, the one error → envelope mapping, 405 and
// 404 for paths and methods outside the API, request ids, and the docs.
import { randomUUID } from 'node:crypto'
import { Elysia, ValidationError } from 'elysia'
import { createLogger } from '../log'
import { Metrics } from './prometheus'
import { API_PATHS } from './paths'
import type { ApiDeps } from './context'
import { noteFor } from './accessLog'
import { docs } from './docs'
import { ApiError, failure, JSON_TYPE, Message } from './errors'
import { callHistory } from './routes/callHistory'
import { changes } from './routes/changes'
import { callLog } from './routes/callLog'
import { daywise } from './routes/daywise'
import { dealerLookup } from './routes/dealerLookup'
import { employeeLookup } from './routes/employeeLookup'
import { health } from './routes/health'
import { productFilter } from './routes/productFilter'
import { UnexpectedErrors, type ErrorLog } from './unexpected'

export { API_PATHS }
const apiPaths = new Set<string>(API_PATHS)

// decision 10: keep the caller's id when it is at most 128 visible ASCII characters
const SANE_ID = /^[\x21-\x7e]{1,128}$/
const requestIdOf = (request: Request) => {
  const given = request.headers.get('x-request-id')
  return given !== null && SANE_ID.test(given) ? given : randomUUID()
}

/**
 * `precompile`: Elysia builds every route's handler and validators now rather than on the
 * route's first request. A server pays it (about 20 ms) before it listens; each route's first
 * answer was 3–10 ms slower without it. Tests, which make many apps, do without.
 */
export function createApp(deps: ApiDeps, logger: ErrorLog = createLogger('info'), metrics = new Metrics(deps.db), { precompile = false } = {}) {
  const unexpected = new UnexpectedErrors(logger, (path) => metrics.unexpectedError(path))
  let whole: { handle(request: Request): Promise<Response> } | undefined // the document describes the app's routes
  // the path is found from the 8th character on, so a Host of any length routes (server.ts
  // re-addresses a request that came without one); a plain-HTTP server's URLs all begin "http://"
  const app = new Elysia({ handler: { standardHostname: false }, precompile })
    .onRequest((ctx) => {
      const { request, set } = ctx
      // Elysia's context carries the path it routes by (not in its types here); reading the
      // request's URL again would build the string again
      const path = (ctx as { path?: string }).path ?? new URL(request.url).pathname
      const id = requestIdOf(request)
      set.headers['x-request-id'] = id
      const note = noteFor(request)
      note.path = path
      note.requestId = id
      if (request.method === 'POST') return
      // Elysia also routes "/listing/dealer/" to the route, so 405 must know it too
      if (apiPaths.has(path.replace(/\/+$/, ''))) {
        const headers = { allow: 'POST', 'x-request-id': String(set.headers['x-request-id']) }
        // HEAD: the headers a GET would get, no body (RFC 9110 §9.3.2)
        if (request.method === 'HEAD') return new Response(null, { status: 405, headers: { ...headers, 'content-type': JSON_TYPE } })
        return failure(405, Message.onlyPost, headers)
      }
    })
    .onError({ as: 'global' }, ({ code, error, set, request }) => {
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(set.headers)) if (typeof v === 'string') headers[k] = v
      set.headers = {} // the failure carries them (http/answer.ts says why)
      // Elysia wraps what a parse hook throws in its own ParseError
      const apiError = error instanceof ApiError ? error : (error as Error)?.cause instanceof ApiError ? ((error as Error).cause as ApiError) : null
      if (apiError) return failure(apiError.status, apiError.message, { ...headers, ...apiError.headers })
      if (code === 'VALIDATION' && (error as ValidationError).type !== 'response') {
        // each field model names its own message; the first failing field wins
        const message = (error as ValidationError).customError
        return failure(400, typeof message === 'string' ? message : Message.invalidJson, headers)
      }
      if (code === 'NOT_FOUND') return failure(404, Message.notFound, headers)
      if (code === 'PARSE') return failure(400, Message.invalidJson, headers)
      unexpected.report(error, noteFor(request).path ?? '', headers['x-request-id'])
      return failure(500, Message.internal, headers)
    })
    .use(docs(() => whole!))
    .use(health(deps))
    .get('/metrics', async () => new Response(await metrics.render(), { headers: { 'content-type': metrics.registry.contentType } }), { detail: { hide: true } })
    .use(callHistory(deps))
    .use(dealerLookup(deps))
    .use(employeeLookup(deps))
    .use(daywise(deps))
    .use(callLog(deps))
    .use(productFilter(deps))
    .use(changes(deps))
  whole = app
  return app
}

