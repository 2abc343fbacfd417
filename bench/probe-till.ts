import { randomBytes, randomInt } from 'node:crypto';
import { drawBarcode } from '../adapters/node/primitives.js';
import { demoConfig } from '../src/demo.js';
import { BridgeTill } from './bridge-till.js';

// The probe till of the tills benchmarks, in a process of its own so the 200
// paying tills' work never delays its calls or its clock: on 'start' it sends
// barcode.verify calls one after the other (each a fresh card's barcode, so
// each is a full verification), on 'stop' it sends back each call's latency.
// On { paced: N } it sends N calls a second whatever is in flight (an open
// loop, as tills that do not wait for each other), each latency counted from
// when its call was due, so a stall delays every call due during it.
// Usage (forked): probe-till.ts WS_URL TILL_KEY

const [wsUrl, key] = process.argv.slice(2) as [string, string];
const till = await BridgeTill.connect(wsUrl, key);

function barcode(): string {
  const cardNumber = `4${String(randomInt(10 ** 14)).padStart(15, '0')}`;
  return drawBarcode({ ...demoConfig.verifier, cardNumber, cardSession: randomBytes(4).toString('hex').toUpperCase() });
}

let running: Promise<number[]> | undefined;
let stopping = false;

async function probe(): Promise<number[]> {
  const latencies: number[] = [];
  while (!stopping) {
    const fullBarcode = barcode();
    const started = performance.now();
    const result = await till.call<{ resultCode: string }>('barcode.verify', { fullBarcode });
    latencies.push(performance.now() - started);
    if (result.resultCode !== 'CARDSESSION_AVAILABLE') throw new Error(`probe barcode answered ${result.resultCode}`);
  }
  return latencies;
}

async function paced(perSecond: number): Promise<number[]> {
  const latencies: number[] = [];
  const periodMs = 1000 / perSecond;
  const inFlight = new Set<Promise<void>>();
  let failure: Error | undefined;
  const started = performance.now();
  let sent = 0;
  while (!stopping && failure === undefined) {
    while (started + sent * periodMs <= performance.now()) {
      const due = started + sent * periodMs;
      sent++;
      const call = till
        .call<{ resultCode: string }>('barcode.verify', { fullBarcode: barcode() })
        .then(
          (result) => {
            latencies.push(performance.now() - due);
            if (result.resultCode !== 'CARDSESSION_AVAILABLE') {
              failure ??= new Error(`probe barcode answered ${result.resultCode}`);
            }
          },
          (error: Error) => {
            failure ??= error;
          },
        )
        .finally(() => inFlight.delete(call));
      inFlight.add(call);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + sent * periodMs - performance.now())));
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return latencies;
}

process.on('message', (message: string | { paced: number }) => {
  if (typeof message === 'object' && running === undefined) {
    stopping = false;
    running = paced(message.paced);
  } else if (message === 'start' && running === undefined) {
    stopping = false;
    running = probe();
  } else if (message === 'stop' && running !== undefined) {
    stopping = true;
    running
      .then(
        (latencies) => process.send!({ latencies }),
        (error: Error) => process.send!({ error: error.message }),
      )
      .finally(() => {
        running = undefined;
      });
  }
});
process.on('SIGTERM', () => {
  till.close();
  process.exit(0);
});
process.send!('ready');
