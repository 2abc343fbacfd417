import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';

/** Reads a JSON config file; a missing or unreadable file, or one that is not JSON, is a ConfigError naming it. */
export function readConfigFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`--config: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError([`--config: ${path} is not valid JSON (${jsonErrorPlace(text, (error as Error).message)})`]);
  }
}

/**
 * Where JSON.parse stopped, as `line L, column C: <its reason>`; V8 gives a character offset, or says the text ended.
 */
export function jsonErrorPlace(text: string, message: string): string {
  const reason = message.replace(/ in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
  const position = /at position (\d+)/.exec(message)?.[1];
  const offset = position === undefined ? text.length : Math.min(Number(position), text.length);
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}: ${reason}`;
}
