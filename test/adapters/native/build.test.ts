import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../../adapters/native/build.mjs', import.meta.url));

/** Runs the build script with extra environment; only paths that stop before node-gyp (which would clean the build). */
function build(env: Record<string, string>) {
  return spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 });
}

describe('adapters/native/build.mjs', () => {
  it('prints one line and exits 0 when the node headers are missing', () => {
    const run = build({ WALLET_PARTNER_KIT_NODEDIR: '/nonexistent/node-headers' });
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      'wallet-partner-kit: native addon not built (no include/node/node.h under /nonexistent/node-headers); the ' +
        'wasm core will be used (`npm run build:native` tries again)',
    ]);
    expect(run.stderr).toBe('');
  });

  it('prints one line and exits 0 when the build is switched off', () => {
    const run = build({ WALLET_PARTNER_KIT_NATIVE: '0' });
    expect(run.status).toBe(0);
    // In the checkout the line names the checkout's command; an installed kit names `npm rebuild wallet-partner-kit`.
    expect(run.stdout).toBe(
      'wallet-partner-kit: native addon not built (WALLET_PARTNER_KIT_NATIVE=0); the wasm core will be used ' +
        '(`npm run build:native` tries again)\n',
    );
  });
});
