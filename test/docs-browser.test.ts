// The docs page as a person sees it: headless Chromium against the real server,
// with every request that leaves loopback blocked. All seven operations show, and
// "Try it out" on the product filter with a key returns a 200.
import { afterAll, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { startServer } from '../src/http/server'
import { createLogger } from '../src/log'
import { testApp, TEST_KEYS } from './helpers'

const CHROMIUM = '/usr/bin/chromium'
const { deps } = testApp()
const server = startServer(deps, '127.0.0.1', 0, createLogger('error'))
afterAll(() => server.stop(true))

test.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('Swagger UI shows the seven operations and "Try it out" works offline', async () => {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'],
  })
  try {
    const page = await browser.newPage()
    const outside: string[] = []
    await page.route('**/*', (route) => {
      const host = new URL(route.request().url()).hostname
      if (host === '127.0.0.1' || host === 'localhost') return route.continue()
      outside.push(route.request().url())
      return route.abort()
    })
    await page.goto(`http://127.0.0.1:${server.port}/docs`)
    await page.waitForSelector('.opblock-summary', { timeout: 20_000 })
    const operations = await page.locator('.opblock-summary-path').allInnerTexts()
    expect(operations.map((t) => t.replace(/\u200b/g, '').trim()).sort()).toEqual(
      ['/listing/calls', '/listing/changes', '/listing/daywise', '/listing/dealer', '/listing/employee', '/listing/listingtiles', '/products/filter'],
    )

    // authorise with the header key, then try the product filter
    await page.locator('button.authorize').first().click()
    await page.locator('.auth-container input').first().fill(TEST_KEYS.acme)
    await page.locator('.auth-btn-wrapper button.authorize').first().click()
    await page.locator('button.btn-done').first().click()
    const filter = page.locator('.opblock', { has: page.locator('.opblock-summary-path', { hasText: '/products/filter' }) })
    await filter.locator('.opblock-summary').click()
    await filter.locator('button.try-out__btn').click()
    await filter.locator('textarea.body-param__text').fill('{ "color": "White" }')
    await filter.locator('button.execute').click()
    const status = filter.locator('.live-responses-table tbody td.response-col_status').first()
    await status.waitFor({ timeout: 20_000 })
    expect((await status.innerText()).trim()).toStartWith('200')
    expect(await filter.locator('.live-responses-table .microlight').first().innerText()).toContain('Marble White')
    expect(outside).toEqual([])
  } finally {
    await browser.close()
  }
}, 60_000)
