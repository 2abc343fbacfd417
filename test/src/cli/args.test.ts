import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/args.js';

const options = { text: { type: 'string' }, title: { type: 'string' }, demo: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

describe('parseCliArgs', () => {
  it('takes a value starting with a dash as the string option\'s value', () => {
    expect(parseCliArgs({ args: ['--text', '-20% today', '--title', '--sale--'], options, strict: true }).values).toEqual({ text: '-20% today', title: '--sale--' });
  });

  it('still reads the command\'s own options after a string option as options', () => {
    expect(() => parseCliArgs({ args: ['--text', '--demo'], options, strict: true })).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' }));
    expect(() => parseCliArgs({ args: ['--text', '-h'], options, strict: true })).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' }));
  });

  it('leaves --name=value, booleans and unknown options to parseArgs', () => {
    expect(parseCliArgs({ args: ['--text=-5', '--demo'], options, strict: true }).values).toEqual({ text: '-5', demo: true });
    expect(() => parseCliArgs({ args: ['--nope'], options, strict: true })).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }));
  });
});
