// The OpenAPI document is generated from the routes' own schemas and documents
// every response; /docs is Swagger UI whose assets are served by the app.
import { describe, expect, test } from 'bun:test'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import { API_PATHS } from '../src/http/app'
import { testApp } from './helpers'

const t = testApp()
const get = (path: string) => t.app.handle(new Request(`http://localhost${path}`))

/** The document with every $ref replaced by what it names, for reading schemas where they are used. */
function resolved(doc: any): any {
  const follow = (node: any): any => {
    if (Array.isArray(node)) return node.map(follow)
    if (node === null || typeof node !== 'object') return node
    if (typeof node.$ref === 'string') return follow(node.$ref.slice(2).split('/').reduce((at: any, key: string) => at[key], doc))
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, follow(v)]))
  }
  return { ...doc, paths: follow(doc.paths) }
}

describe('/openapi.json', async () => {
  const res = await get('/openapi.json')
  const raw: any = await res.json()
  const doc = resolved(raw)

  test('passes redocly lint (recommended rules) with no error and no warning', async () => {
    const config = await createConfig({ extends: ['recommended'] })
    const problems = await lintFromString({ source: JSON.stringify(raw), absoluteRef: '/openapi.json', config })
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([])
  })

  test('names its schemas as components, has servers, and no 3.0 or Elysia leftovers', () => {
    for (const name of ['CallRecord', 'CallLogRow', 'DaywiseRow', 'Product', 'StoreEntry', 'Metrics', 'DealerBlock', 'Failure400', 'CallHistoryAnswer', 'ProductFilterRequest']) {
      expect(raw.components.schemas[name]).toBeDefined()
    }
    expect(raw.paths['/listing/listingtiles'].post.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CallHistoryAnswer' })
    expect(raw.servers).toEqual([{ url: '/', description: 'This server' }])
    const text = JSON.stringify(raw)
    expect(text).not.toContain('"nullable"')
    expect(text).not.toContain('"error":"page must be')
    expect(text).not.toContain('"additionalProperties":false') // unknown request fields are ignored; answers may gain fields
    expect(raw.components.schemas.CallRecord.properties.city.type).toEqual(['string', 'null'])
  })

  test.each([...API_PATHS])('%s documents the headers of its answers: request id, rate limit, Retry-After on 429', (path) => {
    const responses = doc.paths[path].post.responses
    for (const response of Object.values<any>(responses)) expect(Object.keys(response.headers)).toContain('X-Request-Id')
    expect(Object.keys(responses['200'].headers)).toEqual(['X-Request-Id', 'RateLimit-Policy', 'RateLimit', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
    expect(Object.keys(responses['429'].headers)).toContain('Retry-After')
    expect(responses['429'].headers['Retry-After'].schema).toEqual({ type: 'integer' })
  })

  test('is OpenAPI 3.1 with exactly the six POST operations', () => {
    expect(res.status).toBe(200)
    expect(doc.openapi).toStartWith('3.1')
    expect(Object.keys(doc.paths).sort()).toEqual([...API_PATHS].sort())
    for (const path of API_PATHS) expect(Object.keys(doc.paths[path])).toEqual(['post'])
  })

  test.each([...API_PATHS])('%s documents its body, success and every failure with examples', (path) => {
    const op = doc.paths[path].post
    const body = op.requestBody.content['application/json'].schema
    // the key may be sent in the body as well as in the header
    expect(body.properties.api_key.type).toContain('string')
    expect(op.summary.length).toBeGreaterThan(5)
    for (const status of ['200', '400', '401', '405', '413', '429', '500']) expect(op.responses[status]).toBeDefined()
    for (const status of ['400', '401', '405', '500']) {
      const schema = op.responses[status].content['application/json'].schema
      expect(Object.keys(schema.properties)).toEqual(['code', 'status', 'message'])
      expect(schema.examples[0]).toMatchObject({ code: Number(status), status: false })
    }
  })

  test('the 404s are documented where the spec has them', () => {
    expect(doc.paths['/listing/listingtiles'].post.responses['404'].description).toContain('SAP code not found')
    expect(doc.paths['/listing/employee'].post.responses['404'].content['application/json'].schema.examples[0].message).toBe('Employee not found')
    expect(doc.paths['/listing/dealer'].post.responses['404']).toBeUndefined()
  })

  test('the header key is a security scheme applied to every operation', () => {
    expect(doc.components.securitySchemes.apiKeyHeader).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'Preferred' })
    expect(doc.security).toEqual([{ apiKeyHeader: [] }])
  })

  test('request fields carry the contract: formats, enums, limits', () => {
    const history = doc.paths['/listing/listingtiles'].post.requestBody.content['application/json'].schema
    expect(history.required).toEqual(['from_date', 'to_date'])
    expect(history.properties.from_date.format).toBe('date')
    expect(JSON.stringify(history.properties.substatus)).toContain('"connected"')
    expect(JSON.stringify(history.properties.call_log_id)).toContain('"maxLength":64')
    const counts = doc.paths['/listing/listingtiles'].post.responses['200'].content['application/json'].schema.properties.paging
    expect(counts.properties.total_records).toEqual({ type: 'integer' })
  })

  test('operations outside the API are not in the document', () => {
    expect(Object.keys(doc.paths).some((p: string) => p.startsWith('/docs'))).toBe(false)
  })
})

describe('/docs', () => {
  test('is Swagger UI that loads only assets served by this app', async () => {
    const res = await get('/docs')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const html = await res.text()
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])
    expect(refs.sort()).toEqual(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css'])
    expect(html).not.toMatch(/https?:\/\/(?!localhost)/)
    const specUrl = /"url":"([^"]+)"/.exec(html)![1]
    expect(new URL(specUrl, 'http://localhost/docs').pathname).toBe('/openapi.json')
  })

  test.each([
    ['/docs/assets/swagger-ui-bundle.js', 'text/javascript', 'SwaggerUIBundle'],
    ['/docs/assets/swagger-ui.css', 'text/css', '.swagger-ui'],
  ])('%s is served from the package', async (path, type, marker) => {
    const res = await get(path)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain(type)
    expect(await res.text()).toContain(marker)
  })
})

describe('success examples', async () => {
  const { Value } = await import('@sinclair/typebox/value')
  const doc: any = resolved(await (await get('/openapi.json')).json())
  test.each([...API_PATHS])('%s has a 200 example that its own response schema accepts', (path) => {
    const schema = doc.paths[path].post.responses['200'].content['application/json'].schema
    expect(schema.examples).toHaveLength(1)
    const route = t.app.routes.find((r) => r.path === path && r.method === 'POST')!
    const ok = (route.hooks as any).response[200]
    expect(Value.Check(ok, schema.examples[0])).toBe(true)
  })
})
