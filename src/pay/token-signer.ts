import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkedToken, hmacToken, signerThrew } from '../../adapters/node/token-scheme.js';
import { type PayTokenConfig, tokenSignerName } from '../contracts/pay/token.js';
import { ConfigError } from '../errors.js';
import type { TokenSigner } from './options.js';

/** What a signer module exports: `sign(bodyText, keyHex)`, answering the token at once or through a promise. */
export type ModuleSign = (bodyText: string, keyHex: string) => unknown;

/** Options of {@link loadTokenSigner}. */
export interface LoadTokenSignerOptions {
  /** Where a relative module path starts. Default: the working directory. */
  baseDir?: string;
  /** Prefixes the configuration errors. Default `pay.token`. */
  field?: string;
}

/**
 * A signer for a `pay.token` other than the kit's own scheme (which signs through a verifier: give
 * `createVerifier({ ..., token: { scheme } })` as `verifier`). `{ scheme: 'hmac-sha256-*' }` signs at once;
 * `{ module }` imports the ES module once, here, and refuses it (`ConfigError`) when it does not load or exports
 * no `sign` function. Each token is checked: a throw or anything but a string is a `TokenSignerError` naming the
 * signer, so the Pay client sends nothing (`TOKEN_SIGNER_FAILED`).
 *
 * @example
 * const pay = createPayClient({ baseUrl, verifier: await loadTokenSigner({ module: './sign.mjs' }, keyHex) });
 */
export async function loadTokenSigner(
  config: PayTokenConfig,
  keyHex: string,
  options: LoadTokenSignerOptions = {},
): Promise<TokenSigner> {
  const field = options.field ?? 'pay.token';
  const name = tokenSignerName(config);
  if ('scheme' in config) {
    const { scheme } = config;
    if (scheme === 'kit') throw new ConfigError([`${field}: the kit's scheme signs through a verifier`]);
    const key = Buffer.from(keyHex, 'hex');
    return { tokenScheme: name, getToken: (text) => hmacToken(scheme, key, text) };
  }
  const sign = await importSign(config.module, options.baseDir ?? process.cwd(), field);
  return {
    tokenScheme: name,
    getToken: async (text) => {
      let value: unknown;
      try {
        value = await sign(text, keyHex);
      } catch (cause) {
        throw signerThrew(name, cause);
      }
      return checkedToken(name, value);
    },
  };
}

async function importSign(path: string, baseDir: string, field: string): Promise<ModuleSign> {
  let loaded: { sign?: unknown };
  try {
    loaded = (await import(pathToFileURL(resolve(baseDir, path)).href)) as { sign?: unknown };
  } catch (cause) {
    const why = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    throw new ConfigError([`${field}.module: ${path} does not load as an ES module (${why})`]);
  }
  if (typeof loaded.sign !== 'function') {
    throw new ConfigError([`${field}.module: ${path} must export a function sign(bodyText, keyHex)`]);
  }
  return loaded.sign as ModuleSign;
}
