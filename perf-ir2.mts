import { readFileSync } from 'node:fs';
const { instance } = await WebAssembly.instantiate(readFileSync('/tmp/asx/core.wasm'), {});
const e = instance.exports as any;
const N = Number(process.argv[3] ?? 0);
e.benchCompress(N);
