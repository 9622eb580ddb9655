import { createLoader, createSerializer } from "nuqs";
import { describe, expect, it } from "vitest";
import {
  defaultTab,
  type ExperimentListViewState,
  experimentListSearchParams,
  experimentPageSearchParams,
} from "./urlState";

describe("experiment list URL state", () => {
  it("round-trips search text, template and page", () => {
    const state: ExperimentListViewState = { q: "baseline run", template: "baseline", skip: 40 };
    const url = createSerializer(experimentListSearchParams)("/experiments", state);
    const restored = createLoader(experimentListSearchParams)(
      new URL(url, "http://localhost").searchParams,
    );
    expect(restored).toEqual(state);
  });
});

describe("experiment page tab", () => {
  it("opens on the grid until anything has run, then on the results", () => {
    expect(defaultTab({})).toBe("configurations");
    expect(defaultTab({ queued: 0, succeeded: 0 })).toBe("configurations");
    expect(defaultTab({ queued: 4 })).toBe("results");
    expect(defaultTab({ succeeded: 2, failed: 1 })).toBe("results");
  });

  it("reads ?tab= and ignores an unknown one", () => {
    const load = createLoader(experimentPageSearchParams);
    expect(load(new URLSearchParams("tab=runs")).tab).toBe("runs");
    expect(load(new URLSearchParams("tab=nope")).tab).toBeNull();
  });
});
