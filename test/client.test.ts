// The typed client partners generate from the OpenAPI document: it is up to
// date with the document, and the README's example works against the app.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { DEMO_KEY } from '../db/fixtures/demo'
import { dealerStores } from '../client/example'
import { CLIENT_TYPES, documentHash, openapiDocument } from '../scripts/gen-client'
import { demoApp } from './helpers'

describe('the typed client', () => {
  test('was generated from the document the service serves now (else: bun run gen:client)', async () => {
    const firstLine = readFileSync(CLIENT_TYPES, 'utf8').split('\n')[0]
    expect(firstLine).toContain(`sha256:${documentHash(await openapiDocument())}`)
  })

  test("the README's example, through openapi-fetch, gets a dealer's stores", async () => {
    const { app } = demoApp()
    const stores = await dealerStores('http://localhost', DEMO_KEY, 'SAP1001', (request) => app.handle(request))
    expect(stores.length).toBe(2)
    expect(stores[0]).toEqual({ storelookup: expect.stringMatching(/^[A-Za-z0-9_-]{28}$/), name: expect.any(String), searches: expect.any(Number) })
    await expect(dealerStores('http://localhost', 'wrong-key', 'SAP1001', (request) => app.handle(request))).rejects.toThrow('401 Invalid API key')
  })
})
