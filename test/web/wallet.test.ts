import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../src/demo.js';
import { startDemoSystem, type RunningDemoSystem } from '../../src/server/demo-system.js';
import {
  BROWSER_TEST_TIMEOUT_MS,
  decodeCanvas,
  haveChromium,
  haveZbarimg,
  launchChromium,
  screenshot,
  SCREENSHOTS,
  VIEWPORTS,
  watchErrors,
  zbarimg,
} from '../support/browser.js';

/** zxing's name for each symbology the wallet app draws (its `data-symbology`). */
const ZXING_FORMAT: Record<string, string> = { 'Code 128': 'CODE_128', 'QR code': 'QR_CODE' };

/** The cash desk's verdict on a barcode, as the demo till asks for it. */
async function verifyAtCashDesk(system: RunningDemoSystem, fullBarcode: string): Promise<unknown> {
  const res = await fetch(`${system.cashDesk.url}/v1/barcode/verify`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demoConfig.tills[0].key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fullBarcode }),
  });
  return res.json();
}

/**
 * Forgets the page's card and issues a fresh one (a barcode is good once at the cash desk), then screenshots what the
 * screen shows and decodes the screenshot with zbarimg. Returns the text under the symbol and what zbar read, as of one
 * moment: when the password's step rolls over during the screenshot, it is taken again.
 */
interface Scan {
  shown: string;
  decoded: string[];
  symbology: string;
}

async function issueAndScan(page: Page, file: string): Promise<Scan> {
  const held = page.getByTestId('card-number');
  const before = (await held.count()) > 0 ? await held.textContent() : null;
  if (before !== null) await page.getByRole('button', { name: 'Forget this card' }).click();
  await page.getByRole('button', { name: 'Issue a card' }).click();
  await expect.poll(() => page.getByTestId('card-number').textContent()).not.toBe(before);
  const image = page.locator('[data-testid=barcode-image][data-symbology]');
  await image.scrollIntoViewIfNeeded();
  let scan: Scan | undefined;
  await expect
    .poll(
      async () => {
        const shown = (await page.getByTestId('barcode-text').textContent())!;
        const symbology = (await image.getAttribute('data-symbology'))!;
        // The viewport only, as the phone's screen shows it (device pixel ratio 1: one image pixel per CSS pixel).
        await page.screenshot({ path: file });
        if ((await page.getByTestId('barcode-text').textContent()) !== shown) return 'the step rolled over';
        scan = { shown, decoded: await zbarimg(file), symbology };
        return 'scanned';
      },
      { timeout: 120_000 },
    )
    .toBe('scanned');
  return scan!;
}

describe.skipIf(!haveChromium())(
  'wallet app page (web/src/wallet, served at /sandbox/app)',
  { timeout: BROWSER_TEST_TIMEOUT_MS },
  () => {
    let system: RunningDemoSystem;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let errors: string[];

    beforeAll(async () => {
      [system, browser] = await Promise.all([startDemoSystem({ port: 0 }), launchChromium()]);
      context = await browser.newContext({ viewport: VIEWPORTS.phone, deviceScaleFactor: 1 });
      page = await context.newPage();
      errors = watchErrors(page);
      await page.goto(`${system.sandbox.url}/sandbox/app`);
    });
    afterAll(async () => {
      await browser?.close();
      await system?.close();
    });

    it(
      'issues a card whose barcode image decodes back to the text under ' + 'it, and the cash desk accepts it',
      async () => {
        await page.getByLabel('Wallet Pay is my default payment method').check();
        await page.getByRole('button', { name: 'Issue a card' }).click();
        const text = (await page.getByTestId('barcode-text').textContent())!;
        expect(text).toMatch(/^CM;\d{16};[0-9A-Za-z]{8};\d{8}$/);
        expect(await page.getByTestId('card-number').textContent()).toBe(text.split(';')[1]);

        // Verified first, while its password is fresh; then the picture is decoded.
        expect(await verifyAtCashDesk(system, text)).toMatchObject({
          resultCode: 'CARDSESSION_AVAILABLE',
          cardNumber: text.split(';')[1],
        });
        // The picture and the text under it are redrawn together at each new time step: compare them as of one
        // moment (when a step rolls over between reading the text and decoding the picture, both are read again).
        await expect
          .poll(
            async () => {
              const shown = await page.getByTestId('barcode-text').textContent();
              const decoded = await decodeCanvas(page, '[data-testid=barcode-image]');
              const symbology = await page.getByTestId('barcode-image').getAttribute('data-symbology');
              if ((await page.getByTestId('barcode-text').textContent()) !== shown) return 'the step rolled over';
              const format = ZXING_FORMAT[symbology ?? ''];
              if (decoded.text === shown && decoded.format === format) return 'the picture says the text';
              return { decoded, shown, symbology };
            },
            { timeout: 120_000 },
          )
          .toBe('the picture says the text');
        await expect.poll(() => page.getByTestId('countdown').textContent()).toMatch(/New password in \d+ s/);
      },
    );

    it("sends a promo code and a receipt to the merchant's Loyalty server and shows its answers", async () => {
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
      await fetch(`${sandbox}/sandbox/push/accounts`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ login: 'wallet-test', partner: 'demo', password: 'initial-password-1' }),
      });
      const auth = (password: string) => ({
        ...json,
        authorization: `Basic ${Buffer.from(`wallet-test:${password}`).toString('base64')}`,
      });
      await fetch(`${sandbox}/public/user/reset-password`, {
        method: 'PUT',
        headers: auth('initial-password-1'),
        body: JSON.stringify({ password: 'a-new-password-2' }),
      });
      const sent = await fetch(`${sandbox}/public/push/single`, {
        method: 'POST',
        headers: auth('a-new-password-2'),
        body: JSON.stringify({ subId: 'hello', msisdn, message: { title: 'Your order', text: 'It is ready' } }),
      });
      expect(sent.status).toBe(200);
      const message = page.getByTestId('message').filter({ hasText: 'Your order' });
      await expect.poll(() => message.count()).toBe(1);
      await message.getByRole('button', { name: 'Mark "Your order" as read' }).click();
      await expect.poll(() => message.locator('.badge').textContent()).toBe('READ');
    });

    it('renders without errors at 390×844 and 1280×800 (screenshots in test-output/console)', async () => {
      await screenshot(page, 'wallet-390x844');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        VIEWPORTS.phone.width,
      );
      await page.setViewportSize(VIEWPORTS.desktop);
      await screenshot(page, 'wallet-1280x800');
      expect(errors).toEqual([]);
    });

    // A phone at device pixel ratio 1 has too few pixels for Code 128's modules (about 1.1 each): the app must draw a
    // symbol a decoder reads from the screen itself, here zbar from a screenshot, and the cash desk must accept its
    // text.
    const scans =
      'draws a symbol zbarimg reads from 390×844 and 1280×800 screenshots at DPR 1; the cash desk accepts it';
    it.skipIf(!haveZbarimg())(scans, async () => {
      for (const { width, height } of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
        await page.setViewportSize({ width, height });
        const file = join(SCREENSHOTS, `wallet-scan-${width}x${height}.png`);
        const { shown, decoded, symbology } = await issueAndScan(page, file);
        // Neither screen has room for two device pixels per Code 128 module at ratio 1 (the app is phone-wide).
        expect({ decoded, symbology }).toEqual({ decoded: [shown], symbology: 'QR code' });
        expect(await verifyAtCashDesk(system, decoded[0]!)).toMatchObject({
          resultCode: 'CARDSESSION_AVAILABLE',
          cardNumber: shown.split(';')[1],
        });
      }
      expect(errors).toEqual([]);
    });

    // Where the pixels are there (a phone's usual dense screen), the app keeps Code 128, what every till scanner reads.
    it.skipIf(!haveZbarimg())('keeps Code 128, as zbarimg reads it, on a 390×844 phone at DPR 3', async () => {
      const dense = await browser.newContext({ viewport: VIEWPORTS.phone, deviceScaleFactor: 3 });
      try {
        const phone = await dense.newPage();
        const denseErrors = watchErrors(phone);
        await phone.goto(`${system.sandbox.url}/sandbox/app`);
        const file = join(SCREENSHOTS, 'wallet-scan-390x844-dpr3.png');
        const { shown, decoded, symbology } = await issueAndScan(phone, file);
        expect({ decoded, symbology }).toEqual({ decoded: [shown], symbology: 'Code 128' });
        expect(await verifyAtCashDesk(system, decoded[0]!)).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE' });
        expect(denseErrors).toEqual([]);
      } finally {
        await dense.close();
      }
    });
  },
);
