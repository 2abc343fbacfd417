#!/usr/bin/env node
import { VERSION } from '../version.js';
import { barcode, BARCODE_USAGE } from './commands/barcode.js';
import { demo, DEMO_USAGE } from './commands/demo.js';
import { loyalty, LOYALTY_USAGE } from './commands/loyalty.js';
import { pay, PAY_USAGE } from './commands/pay.js';
import { push, PUSH_USAGE } from './commands/push.js';
import { sandbox, SANDBOX_USAGE } from './commands/sandbox.js';
import { serve, SERVE_USAGE } from './commands/serve.js';
import { describeCliFailure } from './errors.js';

const USAGE = `wallet-partner-kit ${VERSION}

Commands:
  demo      start the whole system: cash desk server, sandbox wallet service, Loyalty server (npm start)
  serve     start the cash desk server (HTTP + WebSocket bridge)
  barcode   print a barcode as the wallet app would draw it
  sandbox   start the wallet-service sandbox (Pay, Push, callbacks, wallet-app simulator)
  push      send pushes and campaigns through a Push API
  loyalty   run the Loyalty API server, or check one
  pay       check a Pay API: what it answers against what the kit expects
  version   print the version

${DEMO_USAGE}

${SERVE_USAGE}

${BARCODE_USAGE}

${SANDBOX_USAGE}

${PUSH_USAGE}

${LOYALTY_USAGE}

${PAY_USAGE}`;

const [command, ...rest] = process.argv.slice(2);

try {
  switch (command) {
    case 'demo': await demo(rest); break;
    case 'serve': await serve(rest); break;
    case 'barcode': barcode(rest); break;
    case 'sandbox': await sandbox(rest); break;
    case 'push': await push(rest); break;
    case 'loyalty': await loyalty(rest); break;
    case 'pay': await pay(rest); break;
    case 'version': case '--version': console.log(VERSION); break;
    case undefined: case 'help': case '--help': case '-h': console.log(USAGE); break;
    default:
      console.error(`Unknown command '${command}'.\n\n${USAGE}`);
      process.exitCode = 2;
  }
} catch (error) {
  // One line saying what and what to do; the stack is ours, not the user's, unless asked for.
  const { line, exitCode } = describeCliFailure(error);
  console.error(`wallet-partner-kit: ${line}`);
  if (process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace') console.error(error);
  // Exit now: a half-started command may still hold a handle (a pool, a timer) that would keep us alive.
  process.exit(exitCode);
}
