// Generates the body of assembly/sha256x4.ts's compression:
// `node bench/gen-sha256x4.mjs` prints it (the committed file holds its output).
// The block is copied into W[0..15] and the schedule computed into W[16..63]
// by loops; the rounds run eight to an iteration of a loop, unrolled within it
// with the working variables' roles rotated (after eight rounds they are back
// in place: no moves). Each round ends in a store of its new `a`: that pins
// its arithmetic between the loads of its neighbours (TurboFan otherwise sinks
// it below the later loads, keeps many vectors alive and spills). Fully
// unrolled (about 19 KB of machine code) ran 5-10% slower in CPU time than
// this, though 24% fewer instructions: the loop stays in the CPU's op cache.
const out = [];
const emit = (s) => out.push('  ' + s);
const v = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
emit(`for (let t: usize = 0; t < 256; t += 16) v128.store(W + t, v128.load(block + t));`);
emit(`for (let t: usize = 256; t < 1024; t += 16) {`);
emit(`  v128.store(W + t, i32x4.add(`);
emit(`    i32x4.add(v128.load(W + t - 256), sigma0x4(v128.load(W + t - 240))),`);
emit(`    i32x4.add(v128.load(W + t - 112), sigma1x4(v128.load(W + t - 32))),`);
emit(`  ));`);
emit(`}`);
emit(`let a = v128.load(state, 0);`);
v.slice(1).forEach((n, i) => {
  emit(`let ${n} = v128.load(state, ${(i + 1) * 16});`);
});
// bc holds b ^ c of the coming round (the a ^ b of the round before): Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)).
emit(`let bc = v128.xor(b, c), ab: v128, t1: v128;`);
emit(`for (let t: usize = 0; t < 1024; t += 128) {`);
for (let t = 0; t < 8; t++) {
  const r = (i) => v[(i - t + 64 * 8) % 8];
  const [A, B, _C, D, E, F, G, H] = [0, 1, 2, 3, 4, 5, 6, 7].map(r);
  emit(`  t1 = i32x4.add(`);
  emit(`    i32x4.add(${H}, bigSigma1x4(${E})),`);
  const k = t * 16;
  emit(`    i32x4.add(v128.bitselect(${F}, ${G}, ${E}), i32x4.add(v128.load(K4 + t, ${k}), v128.load(W + t, ${k}))),`);
  emit(`  );`);
  emit(`  ${D} = i32x4.add(${D}, t1);`);
  emit(`  ab = v128.xor(${A}, ${B});`);
  emit(`  ${H} = i32x4.add(i32x4.add(t1, bigSigma0x4(${A})), v128.xor(${B}, v128.and(ab, bc)));`);
  emit(`  bc = ab;`);
  emit(`  v128.store(SINK, ${H});`);
}
emit(`}`);
v.forEach((n, i) => {
  emit(`v128.store(state, i32x4.add(v128.load(state, ${i * 16}), ${n}), ${i * 16});`);
});
console.log(out.join('\n'));
