import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fmt, markdown, type GroupResult } from './harness.js';
import type { FloorCheck, FloorVerdict } from './floors.js';

/** The machine a run measured on: figures from two machines are not comparable, ratios mostly are. */
export interface MachineInfo {
  cpuModel: string;
  cores: number;
  node: string;
  platform: string;
  /** 1, 5 and 15 minute load averages at the start and at the end of the run: a busy machine explains a low rate. */
  loadAverageStart: number[];
  loadAverageEnd: number[];
}

/** bench/out/results.json. */
export interface CiResults {
  /** Bumped when a field changes meaning. */
  schemaVersion: 1;
  date: string;
  durationSeconds: number;
  machine: MachineInfo;
  /** `git rev-parse HEAD`, with `dirty` when the work tree differs; null outside a git checkout. */
  git: { commit: string; dirty: boolean } | null;
  settings: Record<string, number>;
  groups: GroupResult[];
  checks: FloorCheck[];
  failures: string[];
  warnings: string[];
  passed: boolean;
}

/** What `machine` says now; the end load average is filled in by {@link finishResults}. */
export function machineInfo(): MachineInfo {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverageStart: loadavg().map(round2),
    loadAverageEnd: [],
  };
}

/** The commit measured, or null where git or the repository is not there. */
export function gitCommit(cwd: string): CiResults['git'] {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
        cwd,
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .toString()
        .trim() !== '';
    return { commit, dirty };
  } catch {
    return null;
  }
}

/** The results object of a finished run. */
export function finishResults(
  started: { at: Date; ms: number; machine: MachineInfo },
  git: CiResults['git'],
  settings: Record<string, number>,
  groups: GroupResult[],
  verdict: FloorVerdict,
): CiResults {
  return {
    schemaVersion: 1,
    date: started.at.toISOString(),
    durationSeconds: round2((performance.now() - started.ms) / 1000),
    machine: { ...started.machine, loadAverageEnd: loadavg().map(round2) },
    git,
    settings,
    groups,
    checks: verdict.checks,
    failures: verdict.failures,
    warnings: verdict.warnings,
    passed: verdict.passed,
  };
}

const value = (c: FloorCheck, v: number | null) =>
  v === null ? '—' : c.kind === 'ratio' ? `${v.toFixed(2)}x` : fmt(v);

/** bench/out/summary.md (also printed): the verdict first, then every check, then every group's table. */
export function summaryMarkdown(results: CiResults): string {
  const m = results.machine;
  const lines = [
    `# wallet-partner-kit bench:ci — ${results.passed ? 'PASSED' : 'FAILED'}`,
    '',
    `${results.date} · ${results.durationSeconds} s · ${m.cpuModel} × ${m.cores} · node ${m.node} · load ` +
      `${m.loadAverageStart.join(' ')} → ${m.loadAverageEnd.join(' ')}` +
      (results.git ? ` · ${results.git.commit.slice(0, 12)}${results.git.dirty ? ' (dirty)' : ''}` : ''),
    '',
    'CI fails only under a floor (bench/floors.json); a goal missed above its floor is reported, not failed.',
    '',
    '| target | measured | goal | goal met | floor | above floor |',
    '|---|---:|---:|:---:|---:|:---:|',
  ];
  for (const c of results.checks) {
    const floor =
      c.floor === null ? 'report only' : `${value(c, c.floor)}${c.floorSource === 'default' ? ' (default)' : ''}`;
    lines.push(
      `| ${c.label} | ${value(c, c.value)} | >= ${value(c, c.goal)} | ${c.met ? 'yes' : 'NO'} | ${floor} | ` +
        `${c.pass ? 'yes' : '**NO**'} |`,
    );
  }
  if (results.failures.length > 0)
    lines.push('', '**Under the floor (this fails CI):**', ...results.failures.map((f) => `- ${f}`));
  if (results.warnings.length > 0) lines.push('', 'Warnings (not failures):', ...results.warnings.map((w) => `- ${w}`));
  lines.push('', '## Groups', '');
  for (const group of results.groups) lines.push(markdown(group));
  return lines.join('\n') + '\n';
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
