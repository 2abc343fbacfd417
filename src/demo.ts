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
  },
  tills: [
    { id: 'demo-till', key: 'demo-till-key-DEMO-ONLY-not-secret' }, // DEMO ONLY
  ],
} as const;
