// Generates the unrolled body of assembly/sha256x4.ts's compression:
// `node bench/gen-sha256x4.mjs` prints it (the committed file holds its output).
// First the message schedule (words 16..63 into W; words 0..15 are read from
// the block itself), then the 64 rounds with the working variables' roles
// rotated from round to round. Each round ends in a store of its new `a`: that
// pins its arithmetic between the loads of its neighbours (TurboFan otherwise
// sinks every round below the last load, keeps dozens of vectors alive and
// spills them).
const out = [];
const emit = (s) => out.push('  ' + s);
const v = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const W = (t) => (t < 16 ? `block + ${t * 16}` : `W + ${(t - 16) * 16}`);
emit(`let w: v128, t1: v128;`);
for (let t = 16; t < 64; t++) {
  emit(`v128.store(${W(t)}, i32x4.add(i32x4.add(v128.load(${W(t - 16)}), sigma0x4(v128.load(${W(t - 15)}))), i32x4.add(v128.load(${W(t - 7)}), sigma1x4(v128.load(${W(t - 2)})))));`);
}
emit(`let a = v128.load(state, 0);`);
v.slice(1).forEach((n, i) => emit(`let ${n} = v128.load(state, ${(i + 1) * 16});`));
// bc holds b ^ c of the coming round (the a ^ b of the round before): Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)).
emit(`let bc = v128.xor(b, c), ab: v128;`);
for (let t = 0; t < 64; t++) {
  const r = (i) => v[(i - t + 64 * 8) % 8];
  const [A, B, C, D, E, F, G, H] = [0, 1, 2, 3, 4, 5, 6, 7].map(r);
  emit(`t1 = i32x4.add(i32x4.add(${H}, bigSigma1x4(${E})), i32x4.add(v128.bitselect(${F}, ${G}, ${E}), i32x4.add(v128.load(K4, ${t * 16}), v128.load(${W(t)}))));`);
  emit(`${D} = i32x4.add(${D}, t1);`);
  emit(`ab = v128.xor(${A}, ${B});`);
  emit(`${H} = i32x4.add(i32x4.add(t1, bigSigma0x4(${A})), v128.xor(${B}, v128.and(ab, bc)));`);
  emit(`bc = ab;`);
  if (t < 63) emit(`v128.store(SINK, ${H});`);
}
v.forEach((n, i) => emit(`v128.store(state, i32x4.add(v128.load(state, ${i * 16}), ${n}), ${i * 16});`));
console.log(out.join('\n'));
