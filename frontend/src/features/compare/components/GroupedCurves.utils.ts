// Plotly traces of grouped curves: per group a shaded band (the server's low/high) and a mean
// line, both in the group's colour; the legend entry carries the group's run count.
import type { Data } from "plotly.js";
import type { GroupPublic } from "@/api";

/** Plotly's default (D3 category10) colours, cycled over groups. */
export const GROUP_COLOURS = [
  "#1f77b4",
  "#ff7f0e",
  "#2ca02c",
  "#d62728",
  "#9467bd",
  "#8c564b",
  "#e377c2",
  "#7f7f7f",
  "#bcbd22",
  "#17becf",
];

function rgba(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

function xValue(x: unknown): number | string {
  return typeof x === "number" ? x : String(x);
}

/** Band (a closed polygon: high forwards, low backwards) then mean line, per group. */
export function groupTraces(groups: GroupPublic[]): Data[] {
  return groups.flatMap((g, i) => {
    const colour = GROUP_COLOURS[i % GROUP_COLOURS.length] ?? "#1f77b4";
    const xs = g.points.map((p) => xValue(p.x));
    const hasBand = g.points.some((p) => p.low !== null && p.low !== undefined);
    const band: Data[] = hasBand
      ? [
          {
            type: "scatter",
            mode: "lines",
            name: `${g.label} band`,
            legendgroup: g.key,
            showlegend: false,
            hoverinfo: "skip",
            x: [...xs, ...[...xs].reverse()],
            y: [
              ...g.points.map((p) => p.high ?? p.mean),
              ...[...g.points].reverse().map((p) => p.low ?? p.mean),
            ],
            fill: "toself",
            fillcolor: rgba(colour, 0.2),
            line: { width: 0, color: colour },
          },
        ]
      : [];
    const mean: Data = {
      type: "scatter",
      mode: "lines+markers",
      name: `${g.label} (${g.runs} runs)`,
      legendgroup: g.key,
      x: xs,
      y: g.points.map((p) => p.mean),
      line: { color: colour, width: 2 },
      marker: { color: colour, size: 6 },
      customdata: g.points.map((p) => p.n),
      hovertemplate: "%{y:.1f} (n=%{customdata})<extra>%{fullData.name}</extra>",
    };
    return [...band, mean];
  });
}

/** Ticks at the measured levels of a numeric x (a few): a factor has no level 4.5. */
export function levelTicks(groups: GroupPublic[], most = 12): number[] | undefined {
  const xs = new Set<number>();
  for (const g of groups) for (const p of g.points) if (typeof p.x === "number") xs.add(p.x);
  return xs.size > 0 && xs.size <= most ? [...xs].sort((a, b) => a - b) : undefined;
}

/** A title as a heading starts: "Throughput by worker threads". */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
