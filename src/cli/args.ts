import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../errors.js';

/**
 * `parseArgs` that takes the next token as a string option's value even when
 * it starts with `-` (`--text '-20% today'`), unless that token is one of the
 * command's own options: Node refuses such values as "ambiguous".
 */
export function parseCliArgs<T extends ParseArgsConfig & { args: string[] }>(
  config: T,
): ReturnType<typeof parseArgs<T>> {
  const options = config.options ?? {};
  const known = (token: string): boolean => {
    const long = /^--([^=]+)/.exec(token);
    if (long) return long[1]! in options;
    return Object.values(options).some((option) => option.short !== undefined && token === `-${option.short}`);
  };
  const args: string[] = [];
  for (let i = 0; i < config.args.length; i++) {
    const token = config.args[i]!;
    const next = config.args[i + 1];
    const name = /^--([^=]+)$/.exec(token)?.[1];
    if (
      name !== undefined &&
      options[name]?.type === 'string' &&
      next?.startsWith('-') &&
      !known(next) &&
      next !== '--'
    ) {
      args.push(`--${name}=${next}`);
      i++;
    } else {
      args.push(token);
    }
  }
  return parseArgs({ ...config, args });
}

/**
 * `--port N`, worded alike by every command: an integer from 0 (a free port) to `max`, lower where the command
 * also takes the ports above N (`demo`). A bad one is a usage error (exit code 2).
 */
export function parsePortOption(value: string | undefined, max = 65_535): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > max)
    throw new ConfigError([`--port: must be an integer from 0 to ${max}`], 'arguments');
  return Number(value);
}
