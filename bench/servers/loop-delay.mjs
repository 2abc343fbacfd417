// Preloaded into a benchmark's server (`node --import .../loop-delay.mjs`): measures the event loop's delay
// (perf_hooks monitorEventLoopDelay, 10 ms resolution) and, on each SIGUSR2, writes what it saw since the
// previous one to BENCH_LOOP_DELAY_FILE as JSON { maxMs, p99Ms, meanMs, samples }, then starts again.
// Each sample is a whole timer period (10 ms when the loop is free): a stall is what a period took beyond it.
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  process.on('SIGUSR2', () => {
    const seen = {
      maxMs: histogram.max / 1e6,
      p99Ms: histogram.percentile(99) / 1e6,
      meanMs: histogram.mean / 1e6,
      samples: histogram.count,
    };
    // Renamed into place, so the reader never sees half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify(seen));
    renameSync(`${file}.tmp`, file);
    histogram.reset();
  });
}
