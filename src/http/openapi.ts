// The OpenAPI 3.1 document partners read and generate clients from. The
// @elysiajs/openapi plugin writes it from the routes' own schemas; this module
// finishes it: every schema with a title becomes a named component referred to
// by $ref, what is not OpenAPI 3.1 is taken out (3.0's `nullable`, Elysia's
// `error` messages), and the servers and the response headers every answer
// carries are added. No object is closed (`additionalProperties: false`, which
// Elysia writes into a route's schemas once it has validated a request):
// requests may carry fields the API ignores (decision 4), and answers may gain
// fields (spec §9). `redocly lint` passes on the result (test/openapi.test.ts).
type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema })
const HEADERS: Record<string, Json> = {
  'X-Request-Id': header("The request's id: the caller's X-Request-Id when it is at most 128 visible ASCII characters, otherwise a new one. The access log records it."),
  'RateLimit-Policy': header('The rate limit (decision 34, draft-ietf-httpapi-ratelimit-headers): "default";q=<requests at once>;w=<seconds the bucket takes to fill>. Sent once the key is known.'),
  RateLimit: header('Now: "default";r=<requests left>;t=<seconds until one more comes back>. Sent once the key is known.'),
  'RateLimit-Limit': header('Requests the integration may send at once (the bucket). Sent once the key is known.', { type: 'integer' }),
  'RateLimit-Remaining': header('Requests left now. Sent once the key is known.', { type: 'integer' }),
  'RateLimit-Reset': header('Seconds until one more request comes back; 0 when the bucket is full. Sent once the key is known.', { type: 'integer' }),
  'Retry-After': header('Seconds to wait before the next request (equals RateLimit-Reset).', { type: 'integer' }),
  Allow: header('POST, the only method the API takes.'),
}
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` })
const RATE_LIMIT = ['RateLimit-Policy', 'RateLimit', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']

/** The headers a response of this status carries. */
function headersOf(status: string): Json {
  const names = ['X-Request-Id']
  if (status === '200' || status === '400' || status === '404' || status === '429') names.push(...RATE_LIMIT)
  if (status === '429') names.push('Retry-After')
  if (status === '405') names.push('Allow')
  return Object.fromEntries(names.map((n) => [n, ref(n)]))
}

/** A schema as OpenAPI 3.1 has it: `nullable` becomes a "null" type; keywords of Elysia's own, and closed objects, go. */
function clean(schema: Json): Json {
  const out: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'error' || key === 'nullable' || (key === 'additionalProperties' && value === false)) continue
    out[key] = value
  }
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null']
    else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null']
  }
  return out
}

/** A schema, cleaned all the way down; a titled one is moved to `named` and referred to. */
function finishSchema(raw: Json, named: Record<string, Json>): Json {
  const schema = clean(raw)
  if (isObject(schema.properties)) schema.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, isObject(s) ? finishSchema(s, named) : s]))
  for (const key of ['items', 'not', 'additionalProperties']) if (isObject(schema[key])) schema[key] = finishSchema(schema[key] as Json, named)
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) if (Array.isArray(schema[key])) schema[key] = (schema[key] as unknown[]).map((s) => (isObject(s) ? finishSchema(s, named) : s))
  const title = typeof schema.title === 'string' ? schema.title : undefined
  if (!title) return schema
  const seen = named[title]
  if (seen && JSON.stringify(seen) !== JSON.stringify(schema)) throw new Error(`two different schemas are both titled ${title}`)
  named[title] = schema
  return { $ref: `#/components/schemas/${title}` }
}

/** Every `schema` of the paths (bodies, responses), finished. */
function finishSchemasIn(node: unknown, named: Record<string, Json>): unknown {
  if (Array.isArray(node)) return node.map((v) => finishSchemasIn(v, named))
  if (!isObject(node)) return node
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'schema' && isObject(v) ? finishSchema(v, named) : finishSchemasIn(v, named)]))
}

export function finishDocument(generated: Json): Json {
  const named: Record<string, Json> = {}
  const paths = finishSchemasIn(generated.paths, named) as Record<string, Record<string, { responses?: Record<string, Json> }>>
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) response.headers = { ...headersOf(status), ...(response.headers as Json | undefined) }
    }
  }
  const components = (generated.components ?? {}) as Json
  return {
    ...generated,
    paths,
    components: {
      ...components,
      schemas: Object.fromEntries(Object.entries({ ...(components.schemas as Json | undefined), ...named }).sort(([a], [b]) => a.localeCompare(b))),
      headers: HEADERS,
    },
  }
}
