/**
 * The embedded demo configuration: what `npm start` (`demo`) and `serve --demo` run and
 * what the sandbox's `--demo` mode trusts. Every secret here is public and
 * marked so; never use them outside a laptop or CI.
 *
 * @example
 * import { createVerifier, demoConfig } from 'wallet-partner-kit';
 * const verifier = createVerifier(demoConfig.verifier);
 */
export const demoConfig = {
  verifier: {
    algorythm: 'HMACSHA256',
    passLength: 8,
    prefix: 'CM',
    key: 'de30de30de30de30de30de30de30de30de30de30de30de30de30de30de30de30', // DEMO ONLY: public, not a partner key
    interval: 30,
    cardSessionLength: 8,
    delimeter: ';',
    partnerId: 'demo-partner',
    // Stated, not defaulted: the demo sandbox draws its barcodes in the partner's scheme, and both must agree.
    scheme: 'rfc6238',
  },
  tills: [
    { id: 'demo-till', key: 'demo-till-key-DEMO-ONLY-not-secret' }, // DEMO ONLY
  ],
  /** The sandbox's demo Push API account (`sandbox --demo`); the password is the initial one, to be reset. */
  push: { login: 'demo-push', password: 'demo-push-initial-DEMO-ONLY' }, // DEMO ONLY
  /**
   * The cash desk server's Pay API: the sandbox's default URL (`sandbox --demo`); `demo` points it at its own
   * sandbox and has that sandbox sign its Pay webhooks with this secret.
   */
  pay: {
    url: 'http://127.0.0.1:8090',
    webhookSecret: 'whsec_d2FsbGV0LXBhcnRuZXIta2l0IGRlbW8gd2ViaG9va3MsIERFTU8gT05MWQ==',
  }, // DEMO ONLY
  /** Basic credentials the wallet service uses on the demo Loyalty server (`loyalty --demo`). */
  loyalty: { login: 'demo-wallet', password: 'demo-loyalty-DEMO-ONLY' }, // DEMO ONLY
} as const;

/**
 * The demo system's merchant console (`demo`): its Push account in the sandbox (the initial password, reset to
 * `newPassword` at start) and the secret the sandbox signs that account's callbacks with for the console's Callback
 * API receiver. Apart from `demoConfig`, which is also a `serve` configuration. Public: DEMO ONLY.
 */
export const demoConsoleAccount = {
  login: 'demo-console',
  password: 'demo-console-initial-DEMO-ONLY',
  newPassword: 'demo-console-reset-DEMO-ONLY', // DEMO ONLY
  callbackSecret: 'whsec_d2FsbGV0LXBhcnRuZXIta2l0IGNvbnNvbGUgY2FsbGJhY2tzLCBERU1PIE9OTFk=', // DEMO ONLY
} as const;
