/** One bar of a chart. */
export interface Bar {
  label: string;
  value: number;
  tone?: 'ok' | 'bad' | 'warn';
}

const COLOURS = { ok: '#0f6b2f', bad: '#a61b1b', warn: '#7a4b00', plain: '#0b57d0' } as const;

/** A small horizontal bar chart in SVG, its numbers also in a table for screen readers. */
export function Bars({ title, bars, unit = '' }: { title: string; bars: Bar[]; unit?: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const row = 22;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      {bars.length === 0 ? (
        <p class="muted">Nothing yet.</p>
      ) : (
        <svg
          viewBox={`0 0 320 ${bars.length * row}`}
          width="100%"
          role="img"
          aria-label={`${title}: ${bars.map((b) => `${b.label} ${b.value}${unit}`).join(', ')}`}
        >
          {bars.map((b, i) => (
            <g key={b.label} transform={`translate(0 ${i * row})`}>
              <text x="0" y="15" font-size="11" fill="#1a1a1a">
                {b.label}
              </text>
              <rect
                x="130"
                y="4"
                height="14"
                width={Math.max(1, (b.value / max) * 150)}
                fill={COLOURS[b.tone ?? 'plain']}
              />
              <text x={136 + (b.value / max) * 150} y="15" font-size="11" fill="#1a1a1a">
                {b.value}
                {unit}
              </text>
            </g>
          ))}
        </svg>
      )}
    </figure>
  );
}

/** A line of a running total over the last samples: how many verifications happened when. */
export function Sparkline({ title, points }: { title: string; points: Array<{ at: string; total: number }> }) {
  const deltas = points.slice(1).map((p, i) => p.total - points[i]!.total);
  const max = Math.max(1, ...deltas);
  const w = 320;
  const h = 60;
  const step = deltas.length > 1 ? w / (deltas.length - 1) : w;
  const path = deltas
    .map((d, i) => `${i === 0 ? 'M' : 'L'}${(i * step).toFixed(1)} ${(h - 4 - (d / max) * (h - 8)).toFixed(1)}`)
    .join(' ');
  const last = points.at(-1)?.total ?? 0;
  return (
    <figure class="chart">
      <figcaption>
        {title}: {last} in all
      </figcaption>
      <svg
        viewBox={`0 0 ${w} ${h}`}
        width="100%"
        role="img"
        aria-label={`${title}: ${last} in all, at most ${max} per sample lately`}
      >
        <rect x="0" y="0" width={w} height={h} fill="#f5f6f8" />
        {deltas.length > 1 && <path d={path} fill="none" stroke="#0b57d0" stroke-width="2" />}
      </svg>
    </figure>
  );
}
