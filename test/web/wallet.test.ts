import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../src/demo.js';
import { startDemoSystem, type RunningDemoSystem } from '../../src/server/demo-system.js';
import { BROWSER_TEST_TIMEOUT_MS, decodeCanvas, haveChromium, launchChromium, screenshot, VIEWPORTS, watchErrors } from '../support/browser.js';

describe.skipIf(!haveChromium())('wallet app page (web/src/wallet, served at /sandbox/app)', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  let system: RunningDemoSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    [system, browser] = await Promise.all([startDemoSystem({ port: 0 }), launchChromium()]);
    context = await browser.newContext({ viewport: VIEWPORTS.phone });
    page = await context.newPage();
    errors = watchErrors(page);
    await page.goto(`${system.sandbox.url}/sandbox/app`);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('issues a card whose barcode image decodes back to the text under it, and the cash desk accepts it', async () => {
    await page.getByLabel('Wallet Pay is my default payment method').check();
    await page.getByRole('button', { name: 'Issue a card' }).click();
    const text = (await page.getByTestId('barcode-text').textContent())!;
    expect(text).toMatch(/^CM;\d{16};[0-9A-Za-z]{8};\d{8}$/);
    expect(await page.getByTestId('card-number').textContent()).toBe(text.split(';')[1]);

    // Verified first, while its password is fresh; then the picture is decoded.
    const res = await fetch(`${system.cashDesk.url}/v1/barcode/verify`, {
      method: 'POST', headers: { authorization: `Bearer ${demoConfig.tills[0].key}`, 'content-type': 'application/json' }, body: JSON.stringify({ fullBarcode: text }),
    });
    expect(await res.json()).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE', cardNumber: text.split(';')[1] });
    // The picture and the text under it are redrawn together at each new time step: compare them as of one
    // moment (when a step rolls over between reading the text and decoding the picture, both are read again).
    await expect.poll(async () => {
      const shown = await page.getByTestId('barcode-text').textContent();
      const decoded = await decodeCanvas(page, '[data-testid=barcode-image]');
      if ((await page.getByTestId('barcode-text').textContent()) !== shown) return 'the step rolled over';
      return decoded.text === shown && decoded.format === 'CODE_128' ? 'the picture says the text' : { decoded, shown };
    }, { timeout: 120_000 }).toBe('the picture says the text');
    await expect.poll(() => page.getByTestId('countdown').textContent()).toMatch(/New password in \d+ s/);
  });

  it('sends a promo code and a receipt to the merchant\'s Loyalty server and shows its answers', async () => {
    await page.getByLabel('Promo code').fill('NO-SUCH-CODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'INVALID' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Send receipt' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'ACCEPTED' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('group').count()).toBeGreaterThan(0);
  });

  it('shows a push message as it arrives and marks it read', async () => {
    const msisdn = '79990000001';
    const sandbox = system.sandbox.url;
    const json = { 'content-type': 'application/json' };
    await fetch(`${sandbox}/sandbox/push/accounts`, { method: 'POST', headers: json, body: JSON.stringify({ login: 'wallet-test', partner: 'demo', password: 'initial-password-1' }) });
    const auth = (password: string) => ({ ...json, authorization: `Basic ${Buffer.from(`wallet-test:${password}`).toString('base64')}` });
    await fetch(`${sandbox}/public/user/reset-password`, { method: 'PUT', headers: auth('initial-password-1'), body: JSON.stringify({ password: 'a-new-password-2' }) });
    const sent = await fetch(`${sandbox}/public/push/single`, {
      method: 'POST', headers: auth('a-new-password-2'), body: JSON.stringify({ subId: 'hello', msisdn, message: { title: 'Your order', text: 'It is ready' } }),
    });
    expect(sent.status).toBe(200);
    const message = page.getByTestId('message').filter({ hasText: 'Your order' });
    await expect.poll(() => message.count()).toBe(1);
    await message.getByRole('button', { name: 'Mark "Your order" as read' }).click();
    await expect.poll(() => message.locator('.badge').textContent()).toBe('READ');
  });

  it('renders without errors at 390×844 and 1280×800 (screenshots in test-output/console)', async () => {
    await screenshot(page, 'wallet-390x844');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await page.setViewportSize(VIEWPORTS.desktop);
    await screenshot(page, 'wallet-1280x800');
    expect(errors).toEqual([]);
  });
});
