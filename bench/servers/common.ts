import { createVerifier } from '../../src/entries/index.js';
import { demoConfig } from '../../src/demo.js';

/** The verifier every benchmark server uses: demo key, replay off so a repeated body costs a full check each time. */
export function benchVerifier(backend: 'wasm' | 'native' = 'wasm') {
  return createVerifier({ ...demoConfig.verifier, backend, replay: false });
}

/**
 * Tells the parent the port, once listening. From then on SIGUSR2 makes the
 * server print `CPU <µs>`, its user + system CPU time so far (`process.cpuUsage`):
 * the parent divides the difference over a round by the requests answered.
 */
export function ready(port: number): void {
  process.on('SIGUSR2', () => {
    const { user, system } = process.cpuUsage();
    process.stdout.write(`CPU ${user + system}\n`);
  });
  process.stdout.write(`READY ${port}\n`);
}
