import type { AddressInfo } from 'node:net'
import { chromium } from '@weft/tooling/system-programs'
import { lanAddress } from '@weft/tooling/test-server'
import { describeNeeding } from '@weft/tooling/tiers'
import { type Browser, chromium as playwrightChromium } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { useTestApi } from './support.js'

const chromiumPath = chromium().path

/**
 * Browsers exempt `localhost` and `127.0.0.1` from `upgrade-insecure-requests`; any other address over plain
 * HTTP gets its assets rewritten to `https://`. So the docs are opened the way a colleague on the network
 * would open them: through this machine's own network address, the server listening on every interface.
 */
describeNeeding([chromium()], 'Swagger UI opened over plain HTTP through a network address', () => {
  const api = useTestApi('pglite', 'docs_network')
  let browser: Browser
  let base: string

  beforeAll(async () => {
    const address = lanAddress()
    await api.app.listen({ host: '0.0.0.0', port: 0 })
    base = `http://${address}:${(api.app.server.address() as AddressInfo).port}`
    browser = await playwrightChromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    })
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('renders every documented operation, fetching nothing over https', async () => {
    const page = await browser.newPage()
    const requested: string[] = []
    const errors: string[] = []
    page.on('request', (request) => requested.push(request.url()))
    page.on('pageerror', (error) => errors.push(error.message))
    const document = (await (await fetch(`${base}/docs/json`)).json()) as { paths: Record<string, object> }
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item))

    await page.goto(`${base}/docs`)
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 })

    expect(await page.locator('.opblock').count()).toBe(operations.length)
    expect(await page.locator('.opblock-summary-path[data-path="/api/auth/login"]').count()).toBe(1)
    expect(requested.filter((url) => !url.startsWith(`${base}/`))).toEqual([])
    expect(errors).toEqual([])
  }, 120_000)
})
