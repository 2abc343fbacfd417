#!/bin/sh
# Instructions per verification for each path: callgrind runs of n and 2n
# verifications, (I(2n) - I(n)) / n. Usage: bench/callgrind.sh [backend] [n] [case...]
set -e
cd "$(dirname "$0")/.."
backend=${1:-wasm}; n=${2:-10000}; shift 2 2>/dev/null || true
cases=${*:-rfc-cached rfc-uncached rfc-batch card-distinct card-rescan card-batch}
out=$(mktemp -d)
total() {
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
    node --import tsx bench/callgrind-verify.ts "$1" "$2" "$backend" >/dev/null 2>"$out/log"
  grep -E '^(summary|totals):' "$out/cg" | head -1 | awk '{print $2}'
}
for c in $cases; do
  one=$(total "$c" "$n"); two=$(total "$c" $((2 * n)))
  # bench/callgrind-verify.ts runs its n twice (the markers of bench/callgrind-phases.sh between).
  echo "$backend $c: $(( (two - one) / (2 * n) )) instructions per verification"
done
rm -rf "$out"
