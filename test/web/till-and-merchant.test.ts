import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../src/demo.js';
import { DEMO_PAGES, startDemoSystem, type RunningDemoSystem } from '../../src/server/demo-system.js';
import {
  BROWSER_TEST_TIMEOUT_MS,
  haveChromium,
  launchChromium,
  screenshot,
  VIEWPORTS,
  watchErrors,
} from '../support/browser.js';

/** A CSV of `count` numbers with a header, as a merchant exports them. */
function numbersCsv(count: number): string {
  const seven = (i: number) => String(i).padStart(7, '0');
  return [
    'msisdn',
    ...Array.from({ length: count }, (_, i) => `+7 999 ${seven(i).slice(0, 3)}-${seven(i).slice(3)}`),
  ].join('\n');
}

describe.skipIf(!haveChromium())(
  'till (/till) and merchant console (/console) on the cash desk server, with the wallet app',
  { timeout: BROWSER_TEST_TIMEOUT_MS },
  () => {
    let system: RunningDemoSystem;
    let browser: Browser;
    let till: Page;
    let wallet: Page;
    let merchant: Page;
    let errors: string[];

    beforeAll(async () => {
      // timeScale: the sandbox's waits (bank delays, phones' delivery and webhook retries) 1000 times shorter, so the
      // 1,000-number campaign is delivered in seconds; what the pages show of each step is the same.
      [system, browser] = await Promise.all([startDemoSystem({ port: 0, timeScale: 1000 }), launchChromium()]);
      till = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
      wallet = await (await browser.newContext({ viewport: VIEWPORTS.phone })).newPage();
      merchant = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
      errors = [...watchErrors(till), ...watchErrors(wallet), ...watchErrors(merchant)];
      await Promise.all([
        till.goto(`${system.cashDesk.url}${DEMO_PAGES.till}`),
        wallet.goto(`${system.sandbox.url}${DEMO_PAGES.wallet}`),
        merchant.goto(`${system.cashDesk.url}${DEMO_PAGES.merchant}`),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await system?.close();
    });

    it('shows no "reconnecting" before a till key is given, nor after one was refused', async () => {
      await till.getByLabel('Till key').waitFor();
      expect(await till.locator('header [role=status]').textContent()).toBe('not connected');
      await till.getByLabel('Till key').fill('not-the-key-of-any-till');
      await till.getByRole('button', { name: 'Connect' }).click();
      await expect
        .poll(() => till.getByRole('alert').textContent())
        .toContain('The till key was refused (401 UNAUTHORIZED)');
      expect(await till.locator('header [role=status]').textContent()).toBe('not connected');
    });

    it('says clearly that a wrong till key was refused', async () => {
      await till.getByLabel('Till key').fill('not-the-key-of-any-till');
      await till.getByRole('button', { name: 'Connect' }).click();
      await expect
        .poll(() => till.getByRole('alert').textContent())
        .toContain('The till key was refused (401 UNAUTHORIZED)');
    });

    it(
      "verifies the wallet's barcode, pays, sees succeeded on the till and in the merchant console; then receipt " +
        'and refund',
      async () => {
        await till.getByLabel('Till key').fill(demoConfig.tills[0].key);
        await till.getByRole('button', { name: 'Connect' }).click();
        await wallet.getByRole('button', { name: 'Issue a card' }).click();
        const barcode = (await wallet.getByTestId('barcode-text').textContent())!;

        await till.getByLabel('Scanned barcode').fill(barcode);
        await till.getByRole('button', { name: 'Verify' }).click();
        await expect.poll(() => till.getByTestId('verification').textContent()).toContain('CARDSESSION_AVAILABLE');
        await till.getByRole('button', { name: 'Pay with the wallet' }).click();
        await expect.poll(() => till.getByTestId('payment-phase').textContent()).toBe('pending');

        const invoice = wallet.getByTestId('invoice');
        await expect.poll(() => invoice.count()).toBe(1);
        expect(await invoice.textContent()).toContain('725.00'); // 200.00 + 2 kg × 150.00 + 250 g × 0.90
        await invoice.getByRole('button', { name: 'Confirm' }).click();
        await expect.poll(() => till.getByTestId('payment-phase').textContent()).toBe('succeeded');
        const transaction = merchant.getByTestId('transaction').first();
        await expect.poll(() => transaction.locator('.badge').first().textContent()).toBe('succeeded');

        await till.getByRole('button', { name: 'Send the receipt' }).click();
        await expect.poll(() => wallet.getByText(/^Receipt,/).count()).toBe(1);
        await till.getByRole('button', { name: 'Refund' }).click();
        await expect.poll(() => till.getByTestId('payment-phase').textContent()).toBe('refunded');
        await expect.poll(() => wallet.getByTestId('payment').first().textContent()).toContain('Refunded 725.00');
        await expect.poll(() => transaction.textContent()).toContain('refunded 725.00');
        await transaction.locator('summary').click();
        await expect.poll(() => transaction.getByText('signature verified').count()).toBeGreaterThan(1);
      },
    );

    it("shows the day's totals on the day-close page, nothing to act on on the reconciliation page", async () => {
      await merchant.getByRole('link', { name: 'Day close' }).click();
      const total = merchant.getByTestId('day-close').locator('tr', { hasText: 'total' });
      await expect.poll(() => total.textContent()).toContain('725.00');
      expect(await total.locator('td').allTextContents()).toEqual(['1', '725.00', '725.00', '0.00']);
      await merchant.getByRole('link', { name: 'Reconciliation' }).click();
      await merchant.getByRole('button', { name: 'Compare the last 24 hours now' }).click();
      await expect.poll(() => merchant.getByText(/1 payments, 1 transactions/).count()).toBe(1);
      expect(await merchant.getByText('No discrepancies').count()).toBe(1);
      await merchant.getByRole('link', { name: 'Overview' }).click();
      await expect.poll(() => merchant.getByTestId('transaction').count()).toBeGreaterThan(0);
    });

    it('sends a campaign of 1,000 numbers from a CSV with its progress, and shows ' +
      'the read callback of one message', async () => {
      await merchant
        .getByLabel(/^Numbers/)
        .setInputFiles({ name: 'numbers.csv', mimeType: 'text/csv', buffer: Buffer.from(numbersCsv(1000)) });
      await merchant.getByLabel('subId').fill('autumn-sale');
      await merchant.getByRole('button', { name: 'Send the campaign' }).click();
      const campaign = merchant.getByTestId('campaign').first();
      await expect
        .poll(() => campaign.getByTestId('campaign-counts').textContent())
        .toMatch(/^1000 of 1000 · accepted 1000 · rejected 0/);
      expect(await campaign.locator('progress').getAttribute('value')).toBe('1000');

      // Every message is delivered, and the receiver verifies and stores each callback (bounds, not expectations: on a
      // loaded machine a thousand signed deliveries take a while).
      const callbacks = merchant.getByRole('region', { name: 'Callbacks received' });
      await expect
        .poll(() => callbacks.getByText(/push\.delivered \d+/).textContent(), { timeout: 240_000 })
        .toContain('push.delivered 1000');

      const msisdn = '79990000042';
      await wallet.getByLabel("This phone's number").fill(msisdn);
      await wallet.getByRole('button', { name: 'Show its messages' }).click();
      const message = wallet.locator(`[data-testid=message][data-msisdn="${msisdn}"]`).first();
      await expect.poll(() => message.textContent()).toContain('Sale');
      const messageId = (await message.getAttribute('data-message-id'))!;
      await message.getByRole('button', { name: /Mark .* as read/ }).click();

      await merchant.getByLabel('Show').selectOption('push.read');
      const read = merchant.getByTestId('callbacks').locator('tr[data-type="push.read"]');
      await expect.poll(() => read.count(), { timeout: 60_000 }).toBe(1);
      expect(await read.textContent()).toContain(messageId);
      expect(await read.textContent()).toContain(msisdn);
      await expect
        .poll(() => merchant.getByTestId('campaign-results').locator('tr', { hasText: msisdn }).textContent())
        .toContain('READ');
    }, 420_000);

    it('renders without errors at 1280×800 and 390×844 (screenshots in test-output/console)', async () => {
      for (const [page, name] of [
        [till, 'till'],
        [merchant, 'merchant'],
      ] as const) {
        await screenshot(page, `${name}-1280x800`);
        await page.setViewportSize(VIEWPORTS.phone);
        await screenshot(page, `${name}-390x844`);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `${name} fits a 390 px phone`,
        ).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      }
      // The wrong key's 401 is the one failed request a browser reports on its console.
      expect(errors.filter((e) => e !== 'HTTP 401 /v1/payments')).toEqual([]);
    });
  },
);
