import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_OUTPUT_TIMEOUT_MS, waitForOutput } from '../support/cli-child.js';
import { waitForDemoBanner } from '../support/demo-child.js';
import { installPackedKit, type InstalledKit } from '../support/installed-kit.js';

const root = join(import.meta.dirname, '..', '..');
// Packing and an offline install of ~60 packages, on a loaded machine.
const INSTALL_TIMEOUT_MS = 600_000;

let kit: InstalledKit = { skip: 'not installed yet' };
beforeAll(async () => {
  kit = await installPackedKit();
  if ('skip' in kit) console.log(`installed package: skipped (${kit.skip})`);
}, INSTALL_TIMEOUT_MS);
afterAll(() => {
  if ('dir' in kit) rmSync(dirname(kit.dir), { recursive: true, force: true });
});

/** `npx wallet-partner-kit ...` in the installed project, as its README tells a merchant. */
function npx(args: string[], env: Record<string, string> = {}): ChildProcess {
  const { dir } = kit as { dir: string };
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...env };
  delete childEnv.DATABASE_URL;
  delete childEnv.REDIS_URL;
  return spawn('npx', ['wallet-partner-kit', ...args], { cwd: dir, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/**
 * SIGTERM to npx only, as `kill %1` after `npx wallet-partner-kit serve --demo &` does; resolves once the server is
 * gone.
 */
async function stopNpx(child: ChildProcess): Promise<void> {
  // The server holds the pipes' write ends too: they close when it exits, not when npx does.
  const serverGone = new Promise<void>((resolve) => child.stdout!.on('close', () => resolve()));
  child.kill('SIGTERM');
  await serverGone;
}

describe.skipIf(process.env.WPK_SKIP_PACKAGE_TEST === '1')('the installed package', () => {
  it(
    'installs without a prepare, with its licence and PGlite snapshot, saying in one line what became of the ' +
      'native addon',
    (ctx) => {
      if ('skip' in kit) return ctx.skip();
      const pkg = join(kit.dir, 'node_modules', 'wallet-partner-kit');
      for (const file of ['LICENSE', 'build/pglite-base.tar', 'build/pglite-base.json', 'build/core.wasm'])
        expect(existsSync(join(pkg, file)), file).toBe(true);
      expect(readFileSync(join(pkg, 'LICENSE'), 'utf8')).toContain(
        'Copyright (c) 2026 wallet-partner-kit contributors',
      );
      expect(
        (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
          .prepare,
      ).toBeUndefined();
      expect(kit.installOutput).not.toContain('prepare');
      const addonLines = kit.installOutput.split('\n').filter((line) => line.includes('native addon'));
      expect(addonLines).toEqual([
        'wallet-partner-kit: native addon not built (WALLET_PARTNER_KIT_NATIVE=0); the wasm core will be used ' +
          '(`npm rebuild wallet-partner-kit` tries again)',
      ]);
    },
  );

  it(
    'serves --demo from the shipped snapshot (no database build), and stops when npx gets SIGTERM',
    async (ctx) => {
      if ('skip' in kit) return ctx.skip();
      const child = npx(['serve', '--demo', '--port', '0'], { LOG_LEVEL: 'debug' });
      const output = { text: '' };
      const port = Number((await waitForOutput(child, output, /HTTP\s+http:\/\/127\.0\.0\.1:(\d+)/))[1]);
      expect(output.text).toContain('pglite: starting from the snapshot');
      expect(output.text).not.toContain('running initdb');
      // The fallback names what a consumer can run.
      expect(output.text).toContain('run `npm rebuild wallet-partner-kit`');
      await stopNpx(child);
      expect(output.text).toContain('"signal":"parent exited"');
      expect(await accepts(port)).toBe(false);
    },
    CHILD_OUTPUT_TIMEOUT_MS + 60_000,
  );

  it(
    'runs demo, and stops it when npx gets SIGTERM',
    async (ctx) => {
      if ('skip' in kit) return ctx.skip();
      const child = npx(['demo', '--port', '0']);
      const output = { text: '' };
      const banner = await waitForDemoBanner(child, output);
      expect(await (await fetch(`${banner.cashDeskUrl}/healthz`)).json()).toMatchObject({ status: 'ok' });
      await stopNpx(child);
      expect(await accepts(Number(new URL(banner.cashDeskUrl).port))).toBe(false);
    },
    CHILD_OUTPUT_TIMEOUT_MS + 60_000,
  );

  it("runs the README's library example, which then exits by itself", async (ctx) => {
    if ('skip' in kit) return ctx.skip();
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Example\n'));
    // It first tells how to set up a project for it (ESM), before any code.
    expect(section.slice(0, section.indexOf('```'))).toContain('"type": "module"');
    const example = /```ts\n([\s\S]*?)\n```/.exec(section)![1]!;
    // What the README leaves to the reader, and its one TypeScript-only mark (a `!`), for plain node.
    const program = [
      'const cacheCardSession = () => {};',
      'const checkoutBody = { amount: 25000 };',
      example.replace(/(process\.env\.\w+)!/g, '$1'),
      'console.log(JSON.stringify({ resultCode: result.resultCode, token: typeof token }));',
    ].join('\n');
    writeFileSync(join(kit.dir, 'example.mjs'), program);
    const child = spawn(process.execPath, ['example.mjs'], {
      cwd: kit.dir,
      env: { ...process.env, PARTNER_KEY: '000102030405060708090a0b0c0d0e0f' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(out).toMatch(/\{"resultCode":"[A-Z_]+","token":"string"\}/);
    expect(code).toBe(0);
  }, 120_000);
});
