import { describe, expect, it } from "vitest";
import type { ReportItem } from "@/api";
import { addView, type ReportView, selectionText, updateView } from "./items";
import { figureTarget, itemFigure } from "./views";

const byWorkers: ReportView = {
  kind: "figure",
  name: "throughput",
  origin: "experiment",
  selection: { x: "workers", series: "clients_per_thread" },
};

describe("report views", () => {
  it("stores a page's figure with its selection, unset values left out", () => {
    const target = figureTarget({
      experimentId: 7,
      name: "throughput",
      params: { x: "workers", series: "clients_per_thread", pin: [], run_id: null, log_x: false },
    });
    expect(target).toEqual({
      experimentId: 7,
      view: {
        kind: "figure",
        name: "throughput",
        origin: "experiment",
        selection: { x: "workers", series: "clients_per_thread", pin: [], log_x: false },
      },
    });
    expect(figureTarget({ calculator: "mva-calculator", body: {} as never })).toBeNull();
  });

  it("sends a compare figure to its first experiment's report without size and style", () => {
    const target = figureTarget({
      name: "compare-groups",
      body: { experiment_ids: [3, 1], x: "workers", width: "page", style: "screen" },
    });
    expect(target?.experimentId).toBe(3);
    expect(target?.view.origin).toBe("compare");
    expect(target?.view.selection).toEqual({ experiment_ids: [3, 1], x: "workers" });
  });

  it("adds a view as a new item and updates only the last item of that figure", () => {
    const old: ReportItem = {
      kind: "figure",
      name: "throughput",
      caption: "Mine",
      explanation: "",
    };
    const added = addView([old], byWorkers);
    expect(added).toHaveLength(2);
    expect(added[1]).toMatchObject({ selection: byWorkers.selection, caption: null });
    const other = { ...byWorkers, selection: { x: "clients_per_thread" } };
    const updated = updateView(added, other);
    expect(updated[0]).toBe(old);
    expect(updated[1]?.selection).toEqual({ x: "clients_per_thread" });
    expect(updateView([old], { ...byWorkers, name: "response-time" })).toEqual([old]);
  });

  it("draws an item from its stored selection, the defaults without one", () => {
    const item: ReportItem = { ...byWorkers, caption: null, explanation: "" };
    expect(itemFigure(item, 7)).toEqual({
      experimentId: 7,
      name: "throughput",
      params: byWorkers.selection,
    });
    expect(itemFigure({ kind: "figure", name: "qq" }, 7)).toEqual({
      experimentId: 7,
      name: "qq",
      params: {},
    });
    expect(itemFigure({ kind: "table", name: "summary" }, 7)).toBeNull();
    expect(selectionText(item)).toBe("View: x = workers; series = clients_per_thread.");
    expect(selectionText({ kind: "table", name: "summary" })).toContain("defaults");
    // A configuration is named by its number in the grid, not its database id.
    const histogram: ReportItem = {
      kind: "figure",
      name: "histogram",
      selection: { configuration_id: 36, request_type: "get" },
    };
    const numbers = new Map([[36, 3]]);
    expect(selectionText(histogram, (id) => numbers.get(id))).toBe(
      "View: configuration #3; request_type = get.",
    );
    expect(selectionText(histogram)).toBe("View: configuration_id = 36; request_type = get.");
  });
});
