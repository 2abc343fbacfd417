import { describe, expect, it } from 'vitest';
import { parseCliArgs, parsePortOption } from '../../../src/cli/args.js';
import { runCli } from './support.js';

const options = {
  text: { type: 'string' },
  title: { type: 'string' },
  demo: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

describe('parseCliArgs', () => {
  it("takes a value starting with a dash as the string option's value", () => {
    expect(
      parseCliArgs({ args: ['--text', '-20% today', '--title', '--sale--'], options, strict: true }).values,
    ).toEqual({ text: '-20% today', title: '--sale--' });
  });

  it("still reads the command's own options after a string option as options", () => {
    expect(() => parseCliArgs({ args: ['--text', '--demo'], options, strict: true })).toThrow(
      expect.objectContaining({ code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' }),
    );
    expect(() => parseCliArgs({ args: ['--text', '-h'], options, strict: true })).toThrow(
      expect.objectContaining({ code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' }),
    );
  });

  it('leaves --name=value, booleans and unknown options to parseArgs', () => {
    expect(parseCliArgs({ args: ['--text=-5', '--demo'], options, strict: true }).values).toEqual({
      text: '-5',
      demo: true,
    });
    expect(() => parseCliArgs({ args: ['--nope'], options, strict: true })).toThrow(
      expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }),
    );
  });
});

describe('parsePortOption', () => {
  it('takes 0 to the highest port and refuses anything else in one wording', () => {
    expect(parsePortOption('0')).toBe(0);
    expect(parsePortOption('65535')).toBe(65_535);
    expect(parsePortOption(undefined)).toBeUndefined();
    for (const bad of ['abc', '-1', '1.5', '65536']) {
      expect(() => parsePortOption(bad)).toThrow('Invalid arguments: --port: must be an integer from 0 to 65535');
    }
    expect(() => parsePortOption('65530', 65_523)).toThrow(
      'Invalid arguments: --port: must be an integer from 0 to 65523',
    );
  });

  it('words --port abc alike in every server command, with exit code 2', async () => {
    for (const command of ['serve --demo', 'sandbox', 'loyalty --demo', 'demo']) {
      const { code, stderr } = await runCli([...command.split(' '), '--port', 'abc']);
      expect(code, command).toBe(2);
      expect(stderr, command).toMatch(
        /^wallet-partner-kit: Invalid arguments: --port: must be an integer from 0 to 655(35|23)\n$/,
      );
    }
  }, 120_000);
});
