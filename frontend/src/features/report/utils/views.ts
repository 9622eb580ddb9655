// Between the pages' figures and tables and report items: the view a figure or table shows,
// and the server figure a report item stands for (drawn from its stored selection).
import type { CompareFigureRequest, DifferencesRequest, ReportItem } from "@/api";
import type { AnyServerFigure, ParamValue } from "@/lib/serverFigure";
import type { ServerTable } from "@/lib/serverTable";
import { type ReportView, selectionOf } from "./items";

/** Where a view goes: the experiment whose report gets it, and the view. */
export interface ReportTarget {
  experimentId: number;
  view: ReportView;
}

/** A page's figure as a report view; null for a figure of no experiment (a calculator). The
 * compare page's figures go to the report of its first experiment. */
export function figureTarget(figure: AnyServerFigure): ReportTarget | null {
  if ("calculator" in figure) return null;
  if ("body" in figure) {
    const { width: _w, height: _h, dpi: _d, style: _s, ...body } = figure.body;
    const experimentId = figure.body.experiment_ids[0];
    if (experimentId === undefined) return null;
    return {
      experimentId,
      view: { kind: "figure", name: figure.name, origin: "compare", selection: selectionOf(body) },
    };
  }
  return {
    experimentId: figure.experimentId,
    view: {
      kind: "figure",
      name: figure.name,
      origin: "experiment",
      selection: selectionOf(figure.params),
    },
  };
}

/** A table of an experiment as a report view. */
export function tableTarget(table: ServerTable): ReportTarget {
  return {
    experimentId: table.experimentId,
    view: {
      kind: "table",
      name: table.name,
      origin: "experiment",
      selection: selectionOf(table.params),
    },
  };
}

/** The compare page's differences table (its request) as a view for the base's report. */
export function differencesTarget(request: DifferencesRequest): ReportTarget | null {
  const experimentId = request.base_experiment_id ?? request.experiment_ids[0];
  if (experimentId === undefined || experimentId === null) return null;
  return {
    experimentId,
    view: {
      kind: "table",
      name: "differences",
      origin: "compare",
      selection: selectionOf(request as Record<string, unknown>),
    },
  };
}

/** The server table a report item of an experiment prints, with its stored selection; null
 * for a figure, or a table of the compare page (its selection is a request body). */
export function itemTable(item: ReportItem, experimentId: number): ServerTable | null {
  if (item.kind !== "table" || item.origin === "compare") return null;
  const params = (item.selection ?? {}) as Record<string, ParamValue>;
  return { experimentId, name: item.name as ServerTable["name"], params };
}

/** The server figure a report item prints: its figure with its stored selection (the
 * defaults when it has none); null for a table. */
export function itemFigure(item: ReportItem, experimentId: number): AnyServerFigure | null {
  if (item.kind !== "figure") return null;
  const selection = item.selection ?? {};
  if (item.origin === "compare")
    return { name: item.name, body: selection as unknown as CompareFigureRequest };
  return { experimentId, name: item.name, params: selection as Record<string, ParamValue> };
}
