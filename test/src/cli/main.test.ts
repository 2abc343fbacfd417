import { describe, expect, it } from 'vitest';
import { VERSION } from '../../../src/version.js';
import { runCli } from './support.js';

describe('CLI main', () => {
  it('answers an unknown command with one line and a hint to --help, exit code 2', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      "wallet-partner-kit: unknown command 'frobnicate'; run 'wallet-partner-kit --help' for the list",
    ]);
  });

  it('prints the version for -v, as for --version', async () => {
    const result = await runCli(['-v']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(VERSION);
  });

  it('prints the whole help for --help, exit code 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Commands:');
    expect(result.stdout).toContain('serve');
  });
});
