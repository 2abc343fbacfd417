import { statSync } from 'node:fs';
import type { Logger } from 'pino';
import { ConfigError } from '../errors.js';

/**
 * Checks that a configuration file holding secrets (keys, passwords) is not readable by every user of the host:
 * a `warn` naming it when it is, or with `strict` (`--strict-permissions`) a `ConfigError` that ends the start.
 * `chmod 0640` and a group of the service's own fixes it.
 */
export function checkConfigPermissions(path: string, logger: Logger, strict: boolean): void {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return; // unreadable files were refused when read
  }
  if ((mode & 0o004) === 0) return;
  const octal = (mode & 0o777).toString(8).padStart(4, '0');
  const line = `${path} holds secrets and is readable by every user (mode ${octal}); chmod o-rwx it`;
  if (strict) throw new ConfigError([`--config: ${line}`], 'server configuration');
  logger.warn({ config: path, mode: octal }, `config file ${line}`);
}

/** Whether `host` binds loopback only: where `--demo`, with its public keys, may listen. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
