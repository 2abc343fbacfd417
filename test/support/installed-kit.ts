import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

/** A project that installed the packed kit, as a merchant's would; or why there is none. */
export type InstalledKit = { dir: string; tarball: string; installOutput: string } | { skip: string };

/**
 * Packs this checkout as it is built (`npm pack --ignore-scripts`: dist/ and build/ from its `npm install`) and
 * installs the tarball into a new project in a temporary folder, offline, from npm's cache (where `npm ci` put
 * the kit's dependencies). The native addon is not compiled there (WALLET_PARTNER_KIT_NATIVE=0: minutes of C++ on
 * a small machine); its install line still shows. `skip` says in one line why it cannot be done here.
 */
export async function installPackedKit(): Promise<InstalledKit> {
  for (const built of ['dist/src/cli/main.js', 'build/pglite-base.tar', 'build/core.wasm']) {
    if (!existsSync(join(root, built))) return { skip: `${built} is missing (run npm install first)` };
  }
  const work = mkdtempSync(join(tmpdir(), 'wpk-installed-'));
  let tarball: string;
  try {
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    tarball = join(work, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
  } catch (error) {
    return { skip: `npm pack cannot run here (${(error as Error).message.split('\n')[0]})` };
  }
  const dir = join(work, 'shop');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'shop', version: '1.0.0', private: true, type: 'module' })}\n`,
  );
  try {
    const { stdout, stderr } = await run(
      'npm',
      ['install', '--offline', '--prefer-offline', '--foreground-scripts', '--no-audit', '--no-fund', tarball],
      { cwd: dir, env: { ...process.env, WALLET_PARTNER_KIT_NATIVE: '0' }, maxBuffer: 64 * 1024 * 1024 },
    );
    return { dir, tarball, installOutput: `${stdout}${stderr}` };
  } catch (error) {
    const output = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
    if (output.includes('ENOTCACHED')) return { skip: "npm's cache lacks the kit's dependencies (npm ci fills it)" };
    throw new Error(`npm install of the packed kit failed:\n${output}`);
  }
}
