/**
 * The embedded demo configuration: what `npm start` (`serve --demo`) runs and
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
  /** Basic credentials the wallet service uses on the demo Loyalty server (`loyalty --demo`). */
  loyalty: { login: 'demo-wallet', password: 'demo-loyalty-DEMO-ONLY' }, // DEMO ONLY
} as const;
