#!/usr/bin/env node
import { KitError } from '../errors.js';
import { VERSION } from '../version.js';
import { barcode, BARCODE_USAGE } from './commands/barcode.js';
import { serve, SERVE_USAGE } from './commands/serve.js';

const USAGE = `wallet-partner-kit ${VERSION}

Commands:
  serve     start the cash desk server (HTTP + WebSocket bridge)
  barcode   print a barcode as the wallet app would draw it
  version   print the version

${SERVE_USAGE}

${BARCODE_USAGE}`;

const [command, ...rest] = process.argv.slice(2);

try {
  switch (command) {
    case 'serve': await serve(rest); break;
    case 'barcode': barcode(rest); break;
    case 'version': case '--version': console.log(VERSION); break;
    case undefined: case 'help': case '--help': case '-h': console.log(USAGE); break;
    default:
      console.error(`Unknown command '${command}'.\n\n${USAGE}`);
      process.exitCode = 2;
  }
} catch (error) {
  // Configuration and argument errors are the user's to fix: say what, not where in our code.
  if (error instanceof KitError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`wallet-partner-kit: ${(error as Error).message}`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
