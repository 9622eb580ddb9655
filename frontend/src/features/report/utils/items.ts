// Pure edits of a report's item list (figures and tables in report order) and their titles.
import type { ReportItem } from "@/api";

/** Something that can be added to the report. */
export interface ReportChoice {
  kind: ReportItem["kind"];
  name: string;
  title: string;
}

/** The server's figure and table lists as choices: figures first, each in the server's order. */
export function reportChoices(
  figures: readonly { name: string; title: string }[],
  tables: readonly { name: string; title: string }[],
): ReportChoice[] {
  return [
    ...figures.map((f) => ({ kind: "figure" as const, name: f.name, title: f.title })),
    ...tables.map((t) => ({ kind: "table" as const, name: t.name, title: t.title })),
  ];
}

/** The item at `index` moved by `delta` places (-1 up, +1 down); out of range: unchanged. */
export function moveItem<T>(items: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length) {
    return [...items];
  }
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(target, 0, item as T);
  return next;
}

/** The list without the item at `index`. */
export function removeItem<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, i) => i !== index);
}

/** The list with one field of the item at `index` replaced. */
export function updateItem(
  items: readonly ReportItem[],
  index: number,
  patch: Partial<Pick<ReportItem, "caption" | "explanation">>,
): ReportItem[] {
  return items.map((item, i) => (i === index ? { ...item, ...patch } : item));
}

/** The list with a new figure or table appended (no caption: the generated one). */
export function addItem(items: readonly ReportItem[], choice: ReportChoice): ReportItem[] {
  return [...items, { kind: choice.kind, name: choice.name, caption: null, explanation: "" }];
}

/** The choices not yet in the report, figures first. */
export function availableChoices(
  items: readonly ReportItem[],
  choices: readonly ReportChoice[],
): ReportChoice[] {
  const taken = new Set(items.map((i) => `${i.kind}:${i.name}`));
  return choices.filter((c) => !taken.has(`${c.kind}:${c.name}`));
}

/** The human title of an item, its name when the server does not list it. */
export function itemTitle(item: ReportItem, choices: readonly ReportChoice[]): string {
  return choices.find((c) => c.kind === item.kind && c.name === item.name)?.title ?? item.name;
}

/** A view of a page as a report item: the figure or table, its page and its selection (the
 * query, or the compare page's body, the page sends the server for it). */
export interface ReportView {
  kind: ReportItem["kind"];
  name: string;
  origin: NonNullable<ReportItem["origin"]>;
  selection: Record<string, unknown>;
}

/** Whether an item is of the view's figure or table (of the same page). */
export function isItemOf(item: ReportItem, view: ReportView): boolean {
  return (
    item.kind === view.kind &&
    item.name === view.name &&
    (item.origin ?? "experiment") === view.origin
  );
}

/** The list with the view appended as a new item (no caption: the generated one). */
export function addView(items: readonly ReportItem[], view: ReportView): ReportItem[] {
  return [...items, { ...view, caption: null, explanation: "" }];
}

/** The list with the last item of the view's figure or table showing this view instead
 * (caption and explanation kept); unchanged when there is none. */
export function updateView(items: readonly ReportItem[], view: ReportView): ReportItem[] {
  const last = items.findLastIndex((item) => isItemOf(item, view));
  return items.map((item, i) => (i === last ? { ...item, selection: view.selection } : item));
}

/** A page's query parameters as a stored selection: unset values left out. */
export function selectionOf(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(params).filter(([, v]) => v !== null && v !== undefined && v !== ""),
  );
}

/** The view an item shows, in a line: "View: x = workers; series = clients_per_thread".
 * `numberOf` gives a configuration's number (its index in the grid, as the pages show it) for
 * its database id, so a histogram reads "configuration #3", not "configuration_id = 36". */
export function selectionText(
  item: ReportItem,
  numberOf?: (configurationId: number) => number | undefined,
): string {
  const entries = Object.entries(item.selection ?? {});
  if (entries.length === 0) return "View: the page's defaults.";
  const text = entries
    .map(([k, v]) => {
      const number = k === "configuration_id" ? numberOf?.(Number(v)) : undefined;
      if (number !== undefined) return `configuration #${number}`;
      return `${k} = ${Array.isArray(v) ? v.join(", ") : String(v)}`;
    })
    .join("; ");
  return `View: ${text}${item.origin === "compare" ? " (compare page)" : ""}.`;
}
