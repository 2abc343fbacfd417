import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../src/demo.js';
import { DEMO_PAGES, startDemoSystem, type RunningDemoSystem } from '../../src/server/demo-system.js';
import { BROWSER_TEST_TIMEOUT_MS, haveChromium, launchChromium, screenshot, VIEWPORTS } from '../support/browser.js';
import { overflows } from '../support/overflow.js';

describe.skipIf(!haveChromium())('page layout', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  let system: RunningDemoSystem;
  let browser: Browser;

  beforeAll(async () => {
    [system, browser] = await Promise.all([startDemoSystem({ port: 0 }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  /** A page at a viewport's size, once it shows what a person works with. */
  async function open(url: string, viewport: { width: number; height: number }): Promise<Page> {
    const page = await (await browser.newContext({ viewport })).newPage();
    await page.goto(url);
    return page;
  }

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    it(`fits the till page and its basket in ${viewport.width}x${viewport.height} viewport (${size})`, async () => {
      const till = await open(`${system.cashDesk.url}${DEMO_PAGES.till}`, viewport);
      await till.getByLabel('Till key').fill(demoConfig.tills[0].key);
      await till.getByRole('button', { name: 'Connect' }).click();
      await till.getByLabel('Line 1 price per', { exact: false }).waitFor();
      await screenshot(till, `layout-till-${viewport.width}x${viewport.height}`);
      expect(await overflows(till)).toEqual([]);
    });

    it(`fits the merchant console and wallet app in the ${viewport.width}x${viewport.height} viewport`, async () => {
      const merchant = await open(`${system.cashDesk.url}${DEMO_PAGES.merchant}`, viewport);
      await merchant.getByRole('heading').first().waitFor();
      expect(await overflows(merchant), 'merchant console').toEqual([]);
      const wallet = await open(`${system.sandbox.url}${DEMO_PAGES.wallet}`, viewport);
      await wallet.getByRole('heading').first().waitFor();
      expect(await overflows(wallet), 'wallet app').toEqual([]);
    });
  }
});
