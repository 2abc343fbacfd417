import { createVerifier } from '../../src/index.js';
import { demoConfig } from '../../src/demo.js';

/** The verifier every benchmark server uses: demo key, replay off so a repeated body costs a full check each time. */
export function benchVerifier(backend: 'wasm' | 'native' = 'wasm') {
  return createVerifier({ ...demoConfig.verifier, backend, replay: false });
}

/** Tells the parent the port, once listening. */
export function ready(port: number): void {
  process.stdout.write(`READY ${port}\n`);
}
