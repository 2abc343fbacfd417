import { demoConfig, demoConsoleAccount } from '../demo.js';

/** A value written as a placeholder to fill in: `<partner key, hex>`, `<a long random key per till>`. */
const PLACEHOLDER = /<[^<>]*>/;

/** The kit's public demo secrets: fine on a laptop, refused on a server other machines can reach. */
const DEMO_SECRETS: ReadonlySet<string> = new Set([
  demoConfig.verifier.key,
  ...demoConfig.tills.map((till) => till.key),
  demoConfig.pay.webhookSecret,
  demoConfig.push.password,
  demoConfig.loyalty.password,
  demoConsoleAccount.password,
  demoConsoleAccount.newPassword,
  demoConsoleAccount.callbackSecret,
]);

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Every string in `value` with its dotted path (`tills[0].key`), depth first. */
function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* strings(item, `${path}[${i}]`);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) yield* strings(item, path ? `${path}.${key}` : key);
  }
}

/**
 * The fields of a merged (not yet validated) `serve` configuration that still hold a placeholder (anything in
 * `<...>`, as the README's sample writes them), and, when the server binds a non-loopback host, those holding one
 * of the kit's public demo secrets. One issue per field, naming it; the value itself is never repeated.
 */
export function placeholderIssues(merged: Record<string, unknown>): string[] {
  const server = merged.server as { host?: unknown } | undefined;
  const host = typeof server?.host === 'string' ? server.host : '127.0.0.1';
  const reachable = !LOOPBACK_HOSTS.has(host);
  const issues: string[] = [];
  for (const [path, value] of strings(merged, '')) {
    if (PLACEHOLDER.test(value)) issues.push(`${path}: is a placeholder (a value in <...>); put the real value there`);
    else if (reachable && DEMO_SECRETS.has(value)) {
      issues.push(`${path}: is one of the kit's public demo secrets, refused on a non-loopback host (${host})`);
    }
  }
  return issues;
}
