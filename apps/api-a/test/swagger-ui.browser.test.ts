import type { AddressInfo } from 'node:net'
import { chromium } from '@weft/tooling/system-programs'
import { describeNeeding } from '@weft/tooling/tiers'
import { type Browser, type Page, chromium as playwrightChromium } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startApp, type TestApp } from './support.js'

const chromiumPath = chromium().path

/** Expands an operation of Swagger UI, presses "Try it out", fills it and executes it; returns the live response. */
async function tryItOut(page: Page, operationId: string, fill: (op: ReturnType<Page['locator']>) => Promise<void>) {
  const op = page.locator(`#operations-${operationId}`)
  await op.locator('.opblock-summary').first().click()
  await op.locator('button.try-out__btn').click()
  await fill(op)
  await op.locator('button.execute').click()
  const row = op.locator('.live-responses-table tbody tr.response').first()
  await row.waitFor()
  const status = Number((await row.locator('td.response-col_status').textContent())?.trim())
  const body = JSON.parse((await row.locator('.response-col_description pre.microlight').first().textContent()) ?? '')
  return { status, body }
}

describeNeeding([chromium()], 'Swagger UI in headless Chromium', () => {
  let t: TestApp
  let browser: Browser
  let base: string

  beforeAll(async () => {
    t = await startApp('pglite', 'swagger_ui')
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    browser = await playwrightChromium.launch({
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    })
  })
  afterAll(async () => {
    await browser?.close()
    await t?.close()
  })

  it('registers, logs in and makes an authorised call through "Try it out"', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${base}/docs`)
    await page.locator('#operations-auth-register').waitFor()

    const user = { username: 'swagger', email: 'swagger@example.com', password: 'through the ui' }
    const registered = await tryItOut(page, 'auth-register', (op) =>
      op.locator('textarea.body-param__text').fill(JSON.stringify(user)),
    )
    expect(registered.status).toBe(201)
    expect(registered.body.data).toMatchObject({ username: 'swagger', email: 'swagger@example.com' })

    const loggedIn = await tryItOut(page, 'auth-login', (op) =>
      op.locator('textarea.body-param__text').fill(JSON.stringify({ email: user.email, password: user.password })),
    )
    expect(loggedIn.status).toBe(200)
    const token: string = loggedIn.body.data.access_token

    await page.locator('.auth-wrapper button.authorize').click()
    const dialog = page.locator('.dialog-ux')
    await dialog.locator('input[type=text]').fill(token)
    await dialog.locator('button.modal-btn.authorize').click()
    await dialog.locator('button.btn-done').click()

    const me = await tryItOut(page, 'users-getUser', (op) =>
      op.locator('tr[data-param-name="id"] input').fill(String(registered.body.data.id)),
    )
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ status: 'success', data: { id: registered.body.data.id, username: 'swagger' } })
    expect(errors).toEqual([])
  }, 120_000)
})
