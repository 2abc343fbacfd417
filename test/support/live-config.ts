import { randomBytes } from 'node:crypto';
import { demoConfig } from '../../src/demo.js';

/** A partner key of this test run: `serve` without `--demo` refuses the public demo key. */
export const LIVE_KEY = randomBytes(32).toString('hex');
/** The till key of {@link liveConfig}'s one till (the demo till's id, a key of this run). */
export const LIVE_TILL_KEY = randomBytes(24).toString('base64url');

/**
 * The demo configuration with every public demo secret replaced or left out: what a test writes for a `serve`
 * child started without `--demo`, which refuses demo secrets (no `pay`: give your own). Register {@link LIVE_KEY}.
 */
export function liveConfig() {
  const { push: _push, loyalty: _loyalty, pay: _pay, ...rest } = demoConfig;
  return {
    ...rest,
    verifier: { ...rest.verifier, key: LIVE_KEY },
    tills: [{ id: demoConfig.tills[0].id, key: LIVE_TILL_KEY }],
  };
}
