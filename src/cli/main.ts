#!/usr/bin/env node
import { VERSION } from '../version.js';
import { describeCliFailure } from './errors.js';

/** The whole help text; it imports every command for its usage lines. */
async function usage(): Promise<string> {
  const [
    { DEMO_USAGE },
    { SERVE_USAGE },
    { BARCODE_USAGE },
    { SANDBOX_USAGE },
    { PUSH_USAGE },
    { LOYALTY_USAGE },
    { PAY_USAGE },
    { BENCH_USAGE },
  ] = await Promise.all([
    import('./commands/demo.js'),
    import('./commands/serve.js'),
    import('./commands/barcode.js'),
    import('./commands/sandbox.js'),
    import('./commands/push.js'),
    import('./commands/loyalty.js'),
    import('./commands/pay.js'),
    import('./commands/bench.js'),
  ]);
  return `wallet-partner-kit ${VERSION}

Commands:
  demo      start the whole system: cash desk server, sandbox wallet service, Loyalty server (npm start)
  serve     start the cash desk server (HTTP + WebSocket bridge)
  barcode   print a barcode as the wallet app would draw it
  sandbox   start the wallet-service sandbox (Pay, Push, callbacks, wallet-app simulator)
  push      send pushes and campaigns through a Push API
  loyalty   run the Loyalty API server, or check one
  pay       check a Pay API: what it answers against what the kit expects
  bench     measure a cash desk server's verifications/s over HTTP and the bridge (CI: --min-rate)
  version   print the version

${DEMO_USAGE}

${SERVE_USAGE}

${BARCODE_USAGE}

${SANDBOX_USAGE}

${PUSH_USAGE}

${LOYALTY_USAGE}

${PAY_USAGE}

${BENCH_USAGE}`;
}

const [command, ...rest] = process.argv.slice(2);

// Each command is imported when it runs: a server then loads only its own part of the kit, and
// loading code is a good part of a start-up's time (`npm run bench -- startup` measures it).
try {
  // Tracing is set up before any server starts, and only when the OTEL_* variables ask for it (telemetry.ts).
  const serving = ['demo', 'serve', 'sandbox', 'loyalty'].includes(command!);
  if (serving) await (await import('./telemetry.js')).startTelemetry(command);
  switch (command) {
    case 'demo':
      await (await import('./commands/demo.js')).demo(rest);
      break;
    case 'serve':
      await (await import('./commands/serve.js')).serve(rest);
      break;
    case 'barcode':
      (await import('./commands/barcode.js')).barcode(rest);
      break;
    case 'sandbox':
      await (await import('./commands/sandbox.js')).sandbox(rest);
      break;
    case 'push':
      await (await import('./commands/push.js')).push(rest);
      break;
    case 'loyalty':
      await (await import('./commands/loyalty.js')).loyalty(rest);
      break;
    case 'pay':
      await (await import('./commands/pay.js')).pay(rest);
      break;
    case 'bench':
      await (await import('./commands/bench.js')).bench(rest);
      break;
    case 'version':
    case '--version':
    case '-v':
      console.log(VERSION);
      break;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(await usage());
      break;
    default:
      // One line, not the whole help: the mistake stays on screen, with the way to the commands.
      console.error(`wallet-partner-kit: unknown command '${command}'; run 'wallet-partner-kit --help' for the list`);
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
