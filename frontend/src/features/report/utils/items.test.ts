import { describe, expect, it } from "vitest";
import type { ReportItem } from "@/api";
import {
  addItem,
  availableChoices,
  itemTitle,
  moveItem,
  type ReportChoice,
  removeItem,
  reportChoices,
  updateItem,
} from "./items";

const fig = (name: string): ReportItem => ({
  kind: "figure",
  name,
  caption: null,
  explanation: "",
});

describe("moveItem", () => {
  it("moves up and down", () => {
    expect(moveItem(["a", "b", "c"], 2, -1)).toEqual(["a", "c", "b"]);
    expect(moveItem(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
  });
  it("leaves the list unchanged past either end, and does not mutate", () => {
    const list = ["a", "b"];
    expect(moveItem(list, 0, -1)).toEqual(["a", "b"]);
    expect(moveItem(list, 1, 1)).toEqual(["a", "b"]);
    expect(moveItem(list, 5, -1)).toEqual(["a", "b"]);
    moveItem(list, 0, 1);
    expect(list).toEqual(["a", "b"]);
  });
});

describe("removeItem", () => {
  it("removes only the given index", () => {
    expect(removeItem(["a", "b", "c"], 1)).toEqual(["a", "c"]);
    expect(removeItem(["a"], 3)).toEqual(["a"]);
  });
});

describe("updateItem and addItem", () => {
  it("patches one item and appends new ones without a caption", () => {
    const items = [fig("x"), fig("y")];
    expect(updateItem(items, 1, { caption: "Y" })[1]?.caption).toBe("Y");
    expect(items[1]?.caption).toBeNull();
    const added = addItem(items, { kind: "table", name: "summary", title: "Summary" });
    expect(added).toHaveLength(3);
    expect(added[2]).toEqual({ kind: "table", name: "summary", caption: null, explanation: "" });
  });
});

describe("availableChoices and itemTitle", () => {
  const choices: ReportChoice[] = [
    { kind: "figure", name: "summary", title: "Throughput" },
    { kind: "table", name: "summary", title: "Summary" },
  ];
  it("keeps kinds apart", () => {
    expect(availableChoices([fig("summary")], choices)).toEqual([choices[1]]);
    expect(itemTitle(fig("summary"), choices)).toBe("Throughput");
    expect(itemTitle(fig("unknown"), choices)).toBe("unknown");
  });
});

describe("reportChoices", () => {
  it("lists the server's figures, then its tables, each in the server's order", () => {
    const figures = [
      { name: "throughput", title: "Throughput", formats: ["json"] },
      { name: "qq", title: "QQ", formats: ["json"] },
    ];
    const tables = [
      { name: "configuration", title: "Experiment configuration" },
      { name: "summary", title: "Summary" },
    ];
    expect(reportChoices(figures, tables).map((c) => `${c.kind}:${c.name}:${c.title}`)).toEqual([
      "figure:throughput:Throughput",
      "figure:qq:QQ",
      "table:configuration:Experiment configuration",
      "table:summary:Summary",
    ]);
  });
});
