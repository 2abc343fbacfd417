// Runs a campaign in a process of its own so a test can SIGKILL it for real.
// argv: url login password numbersFile progressFile resultsFile subId campaignId crashAtKey
// When the answer to the batch with idempotency key `crashAtKey` has arrived, it prints
// `answered <key>` and hangs before the campaign can record it: the test kills it there,
// the worst moment (the service has sent the batch, the progress file says "sending").
import { createPushClient, readMsisdnFile, sendCampaign } from '../../../src/entries/push.js';

const [url, login, password, numbersFile, progressFile, resultsFile, subId, campaignId, crashAtKey] =
  process.argv.slice(2) as string[];

const fetchThenMaybeHang: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const key = new Headers(init?.headers).get('idempotency-key');
  if (key !== null && key === crashAtKey && response.status === 200) {
    await response.arrayBuffer();
    process.stdout.write(`answered ${key}\n`);
    await new Promise(() => {}); // frozen here until killed
  }
  return response;
};

const client = createPushClient({ url: url!, login: login!, password: password!, fetch: fetchThenMaybeHang });
await sendCampaign({
  client,
  numbers: readMsisdnFile(numbersFile!),
  subId: subId!,
  message: { title: 'Crash test', text: 'Each number exactly once' },
  progressFile,
  resultsFile,
  campaignId,
  onBatch: (batch) => process.stdout.write(`batch ${batch.index}\n`),
});
process.stdout.write('finished\n');
