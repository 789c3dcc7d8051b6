// The typed client partners generate from the OpenAPI document: it is up to
// date with the document, and the README's example works against the app.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { DEMO_KEY } from '../db/fixtures/demo'
import { dealerStores, syncCopy } from '../client/example'
import { CLIENT_TYPES, documentHash, openapiDocument } from '../scripts/gen-client'
import { demoApp, sendAsDemo } from './helpers'

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

  test("the README's change feed example keeps a copy equal to call history", async () => {
    const demo = demoApp()
    const handle = (request: Request) => demo.app.handle(request)
    const copy = await syncCopy('http://localhost', DEMO_KEY, { cursor: null, calls: new Map() }, handle)
    const history = await sendAsDemo(demo, '/listing/listingtiles', { from_date: '2025-01-01', to_date: '2025-06-30', limit: 500 })
    expect(copy.calls.size).toBe(history.json.paging.total_records)
    expect(copy.cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    // asked again with nothing new: the same cursor, the same copy
    const again = await syncCopy('http://localhost', DEMO_KEY, { cursor: copy.cursor, calls: new Map(copy.calls) }, handle)
    expect([again.cursor, again.calls.size]).toEqual([copy.cursor, copy.calls.size])
  })
})
