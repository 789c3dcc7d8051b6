// Composition root: every route, the one error → envelope mapping, 405 and
// 404 for paths and methods outside the API, request ids, and the docs.
import { randomUUID } from 'node:crypto'
import { Elysia, ValidationError } from 'elysia'
import { createLogger } from '../log'
import { Metrics } from './metrics'
import { API_PATHS } from './paths'
import type { ApiDeps } from './context'
import { docs } from './docs'
import { ApiError, failure, Message } from './errors'
import { callHistory } from './routes/callHistory'
import { callLog } from './routes/callLog'
import { daywise } from './routes/daywise'
import { dealerLookup } from './routes/dealerLookup'
import { employeeLookup } from './routes/employeeLookup'
import { health } from './routes/health'
import { productFilter } from './routes/productFilter'

export { API_PATHS }
const apiPaths = new Set<string>(API_PATHS)

// decision 10: keep the caller's id when it is at most 128 visible ASCII characters
const SANE_ID = /^[\x21-\x7e]{1,128}$/
const requestIdOf = (request: Request) => {
  const given = request.headers.get('x-request-id')
  return given !== null && SANE_ID.test(given) ? given : randomUUID()
}

export interface ErrorLog {
  error(message: string, fields?: Record<string, unknown>): void
}

export function createApp(deps: ApiDeps, logger: ErrorLog = createLogger('info'), metrics = new Metrics(deps.db)) {
  return new Elysia()
    .onRequest(({ request, set }) => {
      set.headers['x-request-id'] = requestIdOf(request)
      if (request.method === 'POST') return
      // Elysia also routes "/listing/dealer/" to the route, so 405 must know it too
      const path = new URL(request.url).pathname.replace(/\/+$/, '')
      if (apiPaths.has(path)) {
        return failure(405, Message.onlyPost, { allow: 'POST', 'x-request-id': String(set.headers['x-request-id']) })
      }
    })
    .onError({ as: 'global' }, ({ code, error, set, request }) => {
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(set.headers)) if (typeof v === 'string') headers[k] = v
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
      logger.error('unhandled error', {
        request_id: headers['x-request-id'],
        path: new URL(request.url).pathname,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      })
      return failure(500, Message.internal, headers)
    })
    .use(docs())
    .use(health(deps))
    .get('/metrics', async () => new Response(await metrics.registry.metrics(), { headers: { 'content-type': metrics.registry.contentType } }), { detail: { hide: true } })
    .use(callHistory(deps))
    .use(dealerLookup(deps))
    .use(employeeLookup(deps))
    .use(daywise(deps))
    .use(callLog(deps))
    .use(productFilter(deps))
}

export type App = ReturnType<typeof createApp>
