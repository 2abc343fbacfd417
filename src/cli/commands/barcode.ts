import { parseCliArgs } from '../args.js';
import { isCardSession } from '../../contracts/card-identifiers.js';
import { drawBarcode } from '../../../adapters/node/primitives.js';
import { demoConfig } from '../../demo.js';
import { ConfigError } from '../../errors.js';
import { resolveServeConfig } from '../../server/config.js';
import { readConfigFile } from '../config-file.js';

export const BARCODE_USAGE = `wallet-partner-kit barcode (--demo | --config FILE) [--card NUMBER] [--session ID]

Prints a barcode as the wallet app would draw it now, for the partner key and scheme of
the configuration (the demo one with --demo). For testing tills and servers.
  --session ID   the card session: cardSessionLength (8 in the demo) printable ASCII; default none`;

/** Prints a fresh barcode for a card. */
export function barcode(argv: string[]): void {
  const { values } = parseCliArgs({
    args: argv,
    strict: true,
    options: {
      demo: { type: 'boolean' },
      config: { type: 'string' },
      card: { type: 'string' },
      session: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(BARCODE_USAGE);
    return;
  }
  const file = values.demo ? demoConfig : values.config ? readConfigFile(values.config) : undefined;
  const { verifier: v } = resolveServeConfig(file, process.env);
  const cardNumber = values.card ?? '4000123412341234';
  const session = values.session;
  // A verifier refuses (MALFORMED) a session of another length: say so here instead of printing such a barcode.
  const sessionValid =
    session !== undefined &&
    isCardSession(session) &&
    session.length === v.cardSessionLength &&
    !session.includes(v.delimeter);
  if (session !== undefined && !sessionValid) {
    throw new ConfigError(
      [
        `--session: must be ${v.cardSessionLength} printable ASCII characters without the delimiter ` +
          `(the configuration's cardSessionLength), e.g. ` +
          `${'AB12CD34XY'.repeat(7).slice(0, v.cardSessionLength)}`,
      ],
      'arguments',
    );
  }
  console.log(drawBarcode({ ...v, cardNumber, cardSession: session }));
}
