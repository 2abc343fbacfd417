import { parseCliArgs } from '../args.js';
import { drawBarcode } from '../../../adapters/node/primitives.js';
import { demoConfig } from '../../demo.js';
import { resolveServeConfig } from '../../server/config.js';
import { readConfigFile } from '../config-file.js';

export const BARCODE_USAGE = `wallet-partner-kit barcode (--demo | --config FILE) [--card NUMBER] [--session ID]

Prints a barcode as the wallet app would draw it now, for the partner key and scheme of
the configuration (the demo one with --demo). For testing tills and servers.`;

/** Prints a fresh barcode for a card. */
export function barcode(argv: string[]): void {
  const { values } = parseCliArgs({
    args: argv, strict: true,
    options: { demo: { type: 'boolean' }, config: { type: 'string' }, card: { type: 'string' }, session: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(BARCODE_USAGE);
    return;
  }
  const file = values.demo ? demoConfig : values.config ? readConfigFile(values.config) : undefined;
  const { verifier: v } = resolveServeConfig(file, process.env);
  const cardNumber = values.card ?? '4000123412341234';
  console.log(drawBarcode({ ...v, cardNumber, cardSession: values.session }));
}
