#!/bin/sh
# Instructions per verification of the wasm core alone (bench/core-ab.mjs), for
# each build given: callgrind runs of n and 2n, (I(2n) - I(n)) / n.
# TurboFan from the start (--no-liftoff), and V8 --predictable (compiler and GC
# on the main thread): runs of the same count give the same total.
# Usage: bench/callgrind-ab.sh <single|batch> <n> a.wasm [b.wasm ...]
set -e
cd "$(dirname "$0")/.."
which=$1; n=$2; shift 2
out=$(mktemp -d)
total() {
  CORE_AB_CASE=$which CORE_AB_COUNT=$2 valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
    node --predictable --no-liftoff --no-wasm-tier-up bench/core-ab.mjs "$1" >/dev/null 2>"$out/log"
  grep -E '^(summary|totals):' "$out/cg" | head -1 | awk '{print $2}'
}
for w in "$@"; do
  one=$(total "$w" "$n"); two=$(total "$w" $((2 * n)))
  echo "$w $which: $(( (two - one) / n )) instructions per verification"
done
rm -rf "$out"
