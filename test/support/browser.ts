import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from '@zxing/library';
import type { Browser, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it): no browser is downloaded. */
export const CHROMIUM = process.env.WPK_CHROMIUM ?? '/usr/bin/chromium';

/**
 * The failure bound of a browser test (vitest's `timeout` for a file's suite): a real Chromium's several processes
 * slow down far more than Node under CPU contention (the wallet test ran 8 s quiet and past 60 s at a load of 12).
 * A bound, not an expectation: no test asserts how long anything took.
 */
export const BROWSER_TEST_TIMEOUT_MS = 240_000;

/** Where the browser tests put their screenshots (git-ignored). */
export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-output', 'console');

/** The two screens the console must work on. */
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

let said = false;

/** True when Chromium is installed; otherwise prints one line, once, saying what is skipped. */
export function haveChromium(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (!said) {
    said = true;
    console.warn(
      `${CHROMIUM} not found: skipping the browser tests (apt-get install -y chromium, as .ci/run does, to run them)`,
    );
  }
  return false;
}

/** Starts headless Chromium for one test file. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/** Saves `page` as test-output/console/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** A page's script errors and refused requests (with their URL), for the assertion that a page ran cleanly. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A refused request is reported below with its URL; the console's line does not name it.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()} ${new URL(response.url()).pathname}`);
  });
  page.on('requestfailed', (request) => {
    // An event stream cut by a page leaving or a server stopping is not a failure of the page.
    if (!request.url().endsWith('/events'))
      errors.push(`request failed: ${new URL(request.url()).pathname} ${request.failure()?.errorText ?? ''}`);
  });
  return errors;
}

/**
 * Reads the barcode drawn on a canvas back from its pixels with zxing (an independent decoder): the picture must be
 * scannable, not decorative. Returns the decoded text and the format zxing recognised.
 */
export async function decodeCanvas(page: Page, selector: string): Promise<{ text: string; format: string }> {
  // The page reduces its pixels to one luminance byte each and sends them as one base64 string: the RGBA array as
  // JSON numbers (about a million for a Code 128 at scale 3) took seconds through the protocol on a loaded machine.
  const image = await page.locator(selector).evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const luminance = new Uint8ClampedArray(canvas.width * canvas.height);
    for (let i = 0; i < luminance.length; i++)
      luminance[i] = (data[i * 4]! * 299 + data[i * 4 + 1]! * 587 + data[i * 4 + 2]! * 114) / 1000;
    let binary = '';
    for (let i = 0; i < luminance.length; i += 0x8000)
      binary += String.fromCharCode(...luminance.subarray(i, i + 0x8000));
    return { width: canvas.width, height: canvas.height, luminance: btoa(binary) };
  });
  const luminance = new Uint8ClampedArray(Buffer.from(image.luminance, 'base64'));
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128, BarcodeFormat.QR_CODE]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  const result = reader.decode(
    new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance, image.width, image.height))),
    hints,
  );
  return { text: result.getText(), format: BarcodeFormat[result.getBarcodeFormat()]! };
}

/** Debian's `zbarimg` (`apt-get install zbar-tools`; .ci/run installs it): a decoder the kit's code never touches. */
export const ZBARIMG = process.env.WPK_ZBARIMG ?? '/usr/bin/zbarimg';

let saidZbar = false;

/** True when zbarimg is installed; otherwise prints one line, once, saying what is skipped. */
export function haveZbarimg(): boolean {
  if (existsSync(ZBARIMG)) return true;
  if (!saidZbar) {
    saidZbar = true;
    console.warn(`${ZBARIMG} not found: skipping the screenshot scans (apt-get install -y zbar-tools as .ci/run does)`);
  }
  return false;
}

/**
 * Every symbol `zbarimg --raw` finds in an image file, one text each (none: an empty list). zbar reads the
 * picture as a camera would: from the screen's pixels, not from the canvas the page drew.
 */
export async function zbarimg(file: string): Promise<string[]> {
  try {
    const { stdout } = await promisify(execFile)(ZBARIMG, ['--raw', '-q', file]);
    return stdout.split('\n').filter((line) => line !== '');
  } catch (error) {
    // Exit status 4: the image was read and holds no symbol zbar can decode.
    if ((error as { code?: unknown }).code === 4) return [];
    throw error;
  }
}
