import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * `parseArgs` that takes the next token as a string option's value even when
 * it starts with `-` (`--text '-20% today'`), unless that token is one of the
 * command's own options: Node refuses such values as "ambiguous".
 */
export function parseCliArgs<T extends ParseArgsConfig & { args: string[] }>(config: T): ReturnType<typeof parseArgs<T>> {
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
    if (name !== undefined && options[name]?.type === 'string' && next?.startsWith('-') && !known(next) && next !== '--') {
      args.push(`--${name}=${next}`);
      i++;
    } else {
      args.push(token);
    }
  }
  return parseArgs({ ...config, args });
}
