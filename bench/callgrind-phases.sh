#!/bin/sh
# Instructions per verification on the main thread, in one process: callgrind
# dumps its counts at markers around two measured runs of n (bench/callgrind-verify.ts),
# so start-up, the warm-up and the compiler and GC threads stay out of the figure,
# and the second run tells how steady the first is (within 1-3% on most paths,
# 7-17% on single-call card-bound ones, where the
# whole-process n / 2n difference of bench/callgrind.sh swung by +-1,500).
# Usage: bench/callgrind-phases.sh [backend] [n] [case...]
set -e
cd "$(dirname "$0")/.."
backend=${1:-wasm}; n=${2:-20000}; shift 2 2>/dev/null || true
cases=${*:-rfc-cached rfc-uncached rfc-batch card-distinct card-rescan card-batch}
out=$(mktemp -d)
for c in $cases; do
  rm -f "$out"/cg*
  valgrind --tool=callgrind --separate-threads=yes --dump-before='node::os::GetHostname*' \
    --callgrind-out-file="$out/cg" \
    node --import tsx bench/callgrind-verify.ts "$c" "$n" "$backend" >/dev/null 2>"$out/log"
  # Dump 1 is start-up and warm-up; dumps 2 and 3 the two measured runs.
  runs=$(for i in 2 3; do
    grep -E '^(summary|totals):' "$out/cg.$i-01" | head -1 | awk -v n="$n" '{printf "%d ", $2 / n}'
  done)
  echo "$backend $c: $runs instructions per verification (two runs of $n)"
done
rm -rf "$out"
