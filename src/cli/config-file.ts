import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';

/** Reads a JSON config file; a missing or unreadable file is a ConfigError naming it. */
export function readConfigFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`--config: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfigError([`--config: ${path} is not valid JSON`]);
  }
}
