#!/usr/bin/env bash
# Instructions per HTTP verify request of a server, counted by callgrind (steady where seconds are not).
# The server (a file of bench/callgrind-http/, over dist/: run `npm run build:ts` first) runs under valgrind on
# core 0; autocannon (core 1) sends WARM requests with instrumentation off (V8 compiles the hot paths meanwhile),
# then N with it on. Prints all instructions per request, and those outside V8's optimizing compiler, which
# still runs now and then under valgrind's slowness and differs from run to run.
#
#   bench/callgrind-http.sh kit.mjs [WARM=25000] [N=5000]; bench/callgrind-http.sh plain-http.mjs
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
server="$here/callgrind-http/$1"; warm="${2:-25000}"; n="${3:-5000}"
out="$(mktemp -d)"
trap 'kill -9 "$pid" 2>/dev/null || true; rm -rf "$out"' EXIT
taskset -c 0 valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out/cg.%p" \
  node "$server" >"$out/log" 2>&1 &
pid=$!
until grep -q READY "$out/log" 2>/dev/null; do kill -0 "$pid" || { cat "$out/log"; exit 1; }; sleep 0.5; done
port="$(grep -o 'READY [0-9]*' "$out/log" | cut -d' ' -f2)"
taskset -c 1 node "$here/callgrind-http/load.mjs" "$port" "$warm"
callgrind_control -i on "$pid" >/dev/null 2>&1
taskset -c 1 node "$here/callgrind-http/load.mjs" "$port" "$n"
callgrind_control -d "$pid" >/dev/null 2>&1
sleep 1
dump="$(ls "$out"/cg.*.1 | head -1)"
callgrind_annotate --threshold=100 "$dump" | awk -v n="$n" -v name="$1" '
  /^ *[0-9,]+ \(/ && !/PROGRAM TOTALS/ {
    v = $1; gsub(",", "", v); all += v
    if ($0 ~ /compiler::|[Mm]aglev/) compiler += v
  }
  END {
    printf "%s: %.0f instructions a request, %.0f outside the optimizing compiler\n", name,
      all / n, (all - compiler) / n
  }'
