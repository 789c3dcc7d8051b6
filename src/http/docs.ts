// The OpenAPI 3.1 document, generated from the routes' own schemas and
// finished by http/openapi.ts, and Swagger UI at /docs with its assets served
// from the swagger-ui-dist package, embedded in the binary: the page loads
// nothing from the internet.
import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import bundlePath from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import cssPath from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }
import { version } from '../../package.json'
import { finishDocument } from './openapi'

const ASSETS = '/docs/assets'
/** where the plugin serves what it generates, before it is finished */
const GENERATED = '/openapi/generated.json'

/** `app`: the whole app, whose routes the document describes. */
export const docs = (app: () => { handle(request: Request): Promise<Response> }) => {
  let finished: string | undefined
  return new Elysia()
    .get(`${ASSETS}/swagger-ui-bundle.js`, () => new Response(Bun.file(bundlePath), { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' } }), { detail: { hide: true } })
    .get(`${ASSETS}/swagger-ui.css`, () => new Response(Bun.file(cssPath), { headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=86400' } }), { detail: { hide: true } })
    .use(
      openapi({
        path: '/docs',
        specPath: GENERATED,
        provider: 'swagger-ui',
        exclude: { paths: ['/health', '/metrics', '/docs', '/openapi.json', GENERATED, /^\/docs\//] },
        swagger: {
          url: '/openapi.json',
          cdn: `${ASSETS}/swagger-ui-bundle.js`,
          theme: `${ASSETS}/swagger-ui.css`,
          autoDarkMode: false,
          persistAuthorization: true,
          validatorUrl: 'none',
        } as never,
        documentation: {
          openapi: '3.1.0',
          info: {
            title: 'Listing Performance and Call History API',
            version,
            license: { name: 'Proprietary: for the integrations the manufacturer issues keys to', identifier: 'LicenseRef-Proprietary' },
            description:
              'Calls received by dealer showrooms, business-listing performance per store, and the product filter. ' +
              'Every endpoint is POST with a JSON body and needs an API key: preferably in the `X-API-KEY` header, ' +
              'or as `api_key` in the body. A failure is an object with code, status false and message, and its HTTP status equals code.',
          },
          components: {
            securitySchemes: {
              apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'Preferred' },
            },
          },
          security: [{ apiKeyHeader: [] }],
          servers: [{ url: '/', description: 'This server' }],
          tags: [
            { name: 'Call history', description: 'Calls across stores' },
            { name: 'Listing performance', description: 'Step 1: find stores; step 2: per-store figures and calls' },
            { name: 'Products', description: 'Product filter (v1)' },
          ],
        },
      }),
    )
    .get(
      '/openapi.json',
      async () => {
        const generated = (await (await app().handle(new Request(`http://localhost${GENERATED}`))).json()) as Record<string, unknown>
        finished ??= JSON.stringify(finishDocument(generated))
        return new Response(finished, { headers: { 'content-type': 'application/json; charset=utf-8' } })
      },
      { detail: { hide: true } },
    )
}
