import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

/** A project that installed the packed kit, as a merchant's would; or why there is none. */
export type InstalledKit = { dir: string; tarball: string; installOutput: string } | { skip: string };

/** npm's codes for a registry it cannot reach: the one reason left to skip for, and never under CI. */
const NETWORK_CODES = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b/;

/**
 * A reason not to install here: a skip on a developer's machine, a failure under CI (`CI=true`), where a skipped
 * check would leave the installed package untested while the run stays green.
 */
export function skipOrFail(reason: string, env: NodeJS.ProcessEnv = process.env): { skip: string } {
  if (env.CI === 'true' || env.CI === '1') throw new Error(`installed package: ${reason}; under CI=true it must run`);
  return { skip: reason };
}

function outputOf(error: unknown): string {
  return `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
}

/**
 * `npm install TARBALL` in `dir`: first offline, from npm's cache alone; when the cache lacks something, again with
 * the registry filling the gaps. `npm ci` caches the tarballs its lockfile names but not the packuments (version
 * lists) that resolving the packed kit's dependency ranges in a new project needs, so right after `npm ci` the
 * offline try usually fails with ENOTCACHED and the second one fetches only those lists.
 */
async function npmInstall(dir: string, tarball: string): Promise<{ output: string } | { skip: string }> {
  const env = { ...process.env, WALLET_PARTNER_KIT_NATIVE: '0' };
  const common = ['install', '--foreground-scripts', '--no-audit', '--no-fund', tarball];
  const options = { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 };
  let output: string;
  try {
    const { stdout, stderr } = await run('npm', ['--offline', ...common], options);
    return { output: `${stdout}${stderr}` };
  } catch (error) {
    output = outputOf(error);
    if (!output.includes('ENOTCACHED')) throw new Error(`npm install of the packed kit failed:\n${output}`);
  }
  try {
    const { stdout, stderr } = await run('npm', ['--prefer-offline', ...common], options);
    return { output: `${stdout}${stderr}` };
  } catch (error) {
    output = outputOf(error);
    const network = NETWORK_CODES.exec(output)?.[1];
    if (network === undefined) throw new Error(`npm install of the packed kit failed:\n${output}`);
    return skipOrFail(`npm's cache lacks some of the kit's dependencies and the registry is unreachable (${network})`);
  }
}

/**
 * Packs this checkout as it is built (`npm pack --ignore-scripts`: dist/ and build/ from its `npm install`) and
 * installs the tarball into a new project in a temporary folder (see npmInstall). The native addon is not compiled
 * there (WALLET_PARTNER_KIT_NATIVE=0: minutes of C++ on a small machine); its install line still shows. `skip`
 * says in one line why it cannot be done here; under CI=true that throws instead. The temporary folder is the
 * caller's (the parent of `dir`) on success, and removed here on every other way out.
 */
export async function installPackedKit(): Promise<InstalledKit> {
  for (const built of ['dist/src/cli/main.js', 'build/pglite-base.tar', 'build/core.wasm']) {
    if (!existsSync(join(root, built))) return skipOrFail(`${built} is missing (run npm install first)`);
  }
  const work = mkdtempSync(join(tmpdir(), 'wpk-installed-'));
  let kept = false;
  try {
    let tarball: string;
    try {
      const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      });
      tarball = join(work, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
    } catch (error) {
      return skipOrFail(`npm pack cannot run here (${(error as Error).message.split('\n')[0]})`);
    }
    const dir = join(work, 'shop');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'shop', version: '1.0.0', private: true, type: 'module' })}\n`,
    );
    const installed = await npmInstall(dir, tarball);
    if ('skip' in installed) return installed;
    kept = true;
    return { dir, tarball, installOutput: installed.output };
  } finally {
    if (!kept) rmSync(work, { recursive: true, force: true });
  }
}
