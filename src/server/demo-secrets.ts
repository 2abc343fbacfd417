import { demoConfig, demoConsoleAccount } from '../demo.js';
import type { ServeConfig } from './config.js';

/** Every public demo secret, which no configuration outside `--demo` may use. */
const DEMO_SECRETS: ReadonlySet<string> = new Set([
  demoConfig.verifier.key,
  ...demoConfig.tills.map((till) => till.key),
  demoConfig.pay.webhookSecret,
  demoConfig.loyalty.password,
  demoConfig.push.password,
  demoConsoleAccount.password,
  demoConsoleAccount.newPassword,
  demoConsoleAccount.callbackSecret,
]);

/** Whether `value` is one of the kit's public demo secrets. */
export function isDemoSecret(value: string | undefined): boolean {
  return value !== undefined && DEMO_SECRETS.has(value);
}

/**
 * The settings of a `serve` configuration that hold a public demo secret, one line each naming the setting (never
 * the value): what `serve` without `--demo` refuses to start with.
 */
export function demoSecretsIn(config: ServeConfig): string[] {
  const settings: Array<[string, string | undefined]> = [
    ['verifier.key', config.verifier.key],
    ...(config.verifier.previousKeys ?? []).map((key, i): [string, string] => [`verifier.previousKeys.${i}`, key]),
    ...config.tills.map((till, i): [string, string] => [`tills.${i}.key (${till.id})`, till.key]),
    ['pay.webhookSecret', config.pay?.webhookSecret],
    ['loyalty.password', config.loyalty?.password],
    ['push.password', config.push?.password],
  ];
  return settings
    .filter(([, value]) => isDemoSecret(value))
    .map(([setting]) => `${setting}: is a public demo secret; use your own (demo secrets only with --demo)`);
}
