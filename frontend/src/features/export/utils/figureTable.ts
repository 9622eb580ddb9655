// The plotted numbers of a server figure as a table, for its CSV: one row per x value, one
// column per drawn line (and its spread when the line has one). Bands and hidden helper
// traces are left out: they repeat a line's numbers.
import type { SummaryTable } from "@/lib/table";

interface TraceLike {
  name?: string;
  x?: unknown;
  y?: unknown;
  fill?: string;
  showlegend?: boolean;
  customdata?: unknown;
  /** Per point: a bound mark ("<", "≥") when the value is only a bound, else "". */
  text?: unknown;
  error_y?: { array?: unknown };
  /** "y2": drawn against the right-hand axis (its own title and unit). */
  yaxis?: string;
}

interface FigureLike {
  data: unknown[];
  layout: {
    xaxis?: { title?: { text?: string } };
    yaxis?: { title?: { text?: string } };
    yaxis2?: { title?: { text?: string } };
  };
}

type Cell = string | number | null;

function cells(v: unknown): Cell[] {
  return Array.isArray(v)
    ? v.map((c) => (typeof c === "number" || typeof c === "string" ? c : null))
    : [];
}

/** The title lower-cased at its start, to follow a series name ("p50 response time"). */
function t0(title: string): string {
  return title.charAt(0).toLowerCase() + title.slice(1);
}

/** Lines of a figure as columns; undefined when it has no line with points. */
export function figureTable(fig: FigureLike): SummaryTable | undefined {
  const lines = (fig.data as TraceLike[]).filter(
    (t) => t.fill !== "toself" && Array.isArray(t.x) && Array.isArray(t.y),
  );
  if (lines.length === 0) return undefined;
  const xTitle = fig.layout.xaxis?.title?.text ?? "x";
  // "Throughput (ops/s)" -> "8 worker threads throughput (ops/s)" and "... throughput std (ops/s)".
  const parts = (title: string) => {
    const [, base = title, unit = ""] = /^(.*?)( \([^)]*\))?$/.exec(title) ?? [];
    return { base, what: t0(base), unit };
  };
  const left = parts(fig.layout.yaxis?.title?.text ?? "y");
  const right = parts(fig.layout.yaxis2?.title?.text ?? "y2");
  const xs: Cell[] = [];
  for (const t of lines) for (const x of cells(t.x)) if (!xs.includes(x)) xs.push(x);
  const header = [xTitle];
  const columns: Map<Cell, Cell>[] = [];
  for (const t of lines) {
    const x = cells(t.x);
    const { base, what, unit } = t.yaxis === "y2" ? right : left;
    const name = t.name ? `${t.name} ${what}` : base;
    header.push(`${name}${unit}`);
    const y = cells(t.y);
    // A bound reads as text ("< 100", "≥ 50000"), never as a plain number.
    const marks = Array.isArray(t.text) ? t.text : [];
    const value = (i: number): Cell => {
      const mark = marks[i];
      return typeof mark === "string" && mark !== "" ? `${mark} ${y[i]}` : (y[i] ?? null);
    };
    columns.push(new Map(x.map((v, i) => [v, value(i)])));
    const spread = cells(t.error_y?.array ?? t.customdata);
    if (spread.length === x.length && spread.some((v) => typeof v === "number")) {
      header.push(`${name} std${unit}`);
      columns.push(new Map(x.map((v, i) => [v, spread[i] ?? null])));
    }
  }
  return { header, rows: xs.map((x) => [x, ...columns.map((c) => c.get(x) ?? null)]) };
}
