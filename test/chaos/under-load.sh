#!/usr/bin/env bash
# Runs the payments chaos test N times in a row (default 3) beside a CPU hog, a busy loop taking one of the
# machine's cores, and prints each run's summary line and result. Exits 1 if any run failed.
# Usage: test/chaos/under-load.sh [N]   (REDIS_URL defaults to the local server, as .ci/run sets it)
set -uo pipefail
cd "$(dirname "$0")/../.."
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
runs="${1:-3}"
node -e 'for(;;){}' &
hog=$!
# Only the hog this script started is ended, by its own process id.
trap 'kill "$hog" 2>/dev/null' EXIT
failed=0
for i in $(seq 1 "$runs"); do
  log="test-output/chaos/run-$i.log"
  mkdir -p test-output/chaos
  start=$(date +%s)
  if npx vitest run test/chaos/payments.test.ts >"$log" 2>&1; then result=passed; else result=FAILED; failed=1; fi
  echo "run $i of $runs: $result in $(( $(date +%s) - start )) s (log: $log)"
  grep -a '^chaos (' "$log" || grep -a 'chaos (' "$log" | sed 's/^.*chaos (/chaos (/'
done
exit "$failed"
