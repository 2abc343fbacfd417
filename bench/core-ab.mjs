// The wasm core alone, for A/B work on assembly/: card-bound barcodes of
// distinct cards verified straight through the exports of one or more core
// builds (no verifier, no store, no per-call string encoding: the barcodes'
// bytes are prepared once, with node:crypto). Plain JS, no tsx, so that runs
// under valgrind are alike. `node bench/core-ab.mjs <ms> a.wasm [b.wasm ...]`
// prints CPU ns per verification (single `verify`, and `verifyBatch` of 64), the
// builds alternating in rounds so that load on a shared machine hits each
// alike. `CORE_AB_COUNT=<n> CORE_AB_CASE=single|batch node bench/core-ab.mjs a.wasm`
// instead runs that many once after a fixed warm-up (bench/callgrind-ab.sh).
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { instantiateSync } from '@assemblyscript/loader';

const KEY = Buffer.from('5f1e0c3a9b7d2468ace013579bdf2468ace013579bdf2468ace013579bdf2468', 'hex');
const AT = Date.UTC(2026, 10, 22, 12, 0, 15);
const CARDS = 4096;
const BATCH = 64;
const counter = Buffer.alloc(8);
counter.writeBigUInt64BE(BigInt(Math.floor(AT / 30_000)));
const barcodes = Array.from({ length: CARDS }, (_, i) => {
  const card = String(4_000_000_000_000_000 + i * 7919);
  const session = `S${card.slice(-7)}`;
  const cardKey = createHmac('sha256', KEY).update(`card:${card}`).digest();
  const tag = createHmac('sha256', cardKey)
    .update(Buffer.concat([counter, Buffer.from(session)]))
    .digest();
  const code = (tag.readUInt32BE(tag[31] & 15) & 0x7fffffff) % 1e8;
  return Buffer.from(`CM;${card};${session};${String(code).padStart(8, '0')}`);
});

function load(path) {
  const x = instantiateSync(new WebAssembly.Module(readFileSync(path)), {}).exports;
  const u8 = new Uint8Array(x.memory.buffer);
  u8.set(Buffer.from('CM'), x.bufferAddress(4));
  u8.set(Buffer.from(';'), x.bufferAddress(4) + 64);
  x.configure(2, 8, 30, 8, 1, 2, 1, 1);
  u8.set(KEY, x.bufferAddress(2));
  x.setPartnerKey(KEY.length);
  const barcodeAt = x.bufferAddress(0);
  const io = x.bufferAddress(1);
  const spans = new Int32Array(x.memory.buffer, x.bufferAddress(7), 128);
  const results = new Int32Array(x.memory.buffer, x.bufferAddress(8), 64 * 16);
  const batches = Array.from({ length: CARDS / BATCH }, (_, b) => {
    const list = barcodes.slice(b * BATCH, (b + 1) * BATCH);
    const s = new Int32Array(128);
    let off = 0;
    list.forEach((bc, i) => {
      s[2 * i] = off;
      s[2 * i + 1] = bc.length;
      off += bc.length;
    });
    return { bytes: Buffer.concat(list), spans: s };
  });
  let next = 0;
  return {
    single(n) {
      for (let i = 0; i < n; i++) {
        const bc = barcodes[next++ % CARDS];
        u8.set(bc, barcodeAt);
        if (x.verify(bc.length, 0, AT) !== 0) throw new Error('refused');
      }
    },
    batch(n) {
      for (let i = 0; i < n; i += BATCH) {
        const b = batches[next++ % batches.length];
        u8.set(b.bytes, io);
        spans.set(b.spans);
        x.verifyBatch(BATCH, AT);
        for (let j = 0; j < BATCH; j++) if (results[j * 16 + 9] !== 0) throw new Error(`refused ${j}`);
      }
    },
  };
}

const args = process.argv.slice(2);
if (process.env.CORE_AB_COUNT) {
  const core = load(args[0] ?? 'build/core.wasm');
  const run = process.env.CORE_AB_CASE === 'single' ? core.single : core.batch;
  run(CARDS * 2); // warm-up, the same for every count
  run(Number(process.env.CORE_AB_COUNT));
} else {
  const ms = Number(args[0]);
  const cores = args.slice(1).map((p) => ({ p, c: load(p), single: [], batch: [] }));
  for (const k of cores) {
    k.c.single(CARDS * 2);
    k.c.batch(CARDS * 4);
  }
  for (let round = 0; round < 7; round++) {
    for (const k of cores) {
      for (const which of ['single', 'batch']) {
        // CPU time of this process, not wall time: time slices lost to other processes on a shared machine do not
        // count.
        const cpu = () => {
          const u = process.cpuUsage();
          return (u.user + u.system) * 1000;
        };
        const start = cpu();
        let n = 0;
        while (cpu() - start < ms * 1e6) {
          k.c[which](1024);
          n += 1024;
        }
        k[which].push((cpu() - start) / n);
      }
    }
  }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1].toFixed(0);
  for (const k of cores) {
    console.log(
      `${k.p}: single ${med(k.single)} ns (min ${Math.min(...k.single).toFixed(0)}), batch ${med(k.batch)} ns ` +
        `(min ${Math.min(...k.batch).toFixed(0)}) per verification, median of 7 rounds`,
    );
  }
}
