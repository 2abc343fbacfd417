import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PayDialectConfig } from '../contracts/pay/dialect.js';
import { ConfigError } from '../errors.js';

/** The dialect presets shipped in the package (`examples/dialects/`), by the name `--dialect` takes. */
export const DIALECT_PRESETS: Readonly<Record<string, string>> = { foreign: 'sandbox-foreign.json' };

// From src/cli (tests, tsx) or dist/src/cli (the installed package): the package root is two or three levels up.
const PRESET_DIRS = ['../..', '../../..'].map((up) => join(import.meta.dirname, up, 'examples', 'dialects'));

/** The file a `--dialect` value names: a shipped preset by its name, or a path. */
function dialectPath(value: string): string {
  const preset = DIALECT_PRESETS[value];
  if (preset === undefined) return value;
  const dir = PRESET_DIRS.find((candidate) => existsSync(join(candidate, preset)));
  if (dir === undefined) throw new ConfigError([`--dialect ${value}: the preset is missing from the package`]);
  return join(dir, preset);
}

/**
 * `--dialect NAME|FILE` (a preset, a serve file holding `pay.dialect`, or the dialect alone) or `WPK_PAY_DIALECT`
 * (JSON); its shape is checked by the client. A file that cannot be read or is not JSON is a ConfigError naming the
 * option (exit 2), so a command reads it before it does anything else.
 */
export function readDialect(option: string | undefined, env: string | undefined): PayDialectConfig | undefined {
  let text: string | undefined = env || undefined;
  let from = 'WPK_PAY_DIALECT';
  if (option !== undefined) {
    from = `--dialect ${option}`;
    const path = dialectPath(option);
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : `unreadable`;
      const presets = Object.keys(DIALECT_PRESETS).join(', ');
      throw new ConfigError([`${from}: ${why}; give a JSON file or a preset (${presets})`], 'arguments');
    }
  }
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError([`${from}: must be JSON`], 'arguments');
  }
  const pay = (value as { pay?: { dialect?: unknown } } | null)?.pay;
  return (pay?.dialect ?? value) as PayDialectConfig;
}
