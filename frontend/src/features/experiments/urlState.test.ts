import { createLoader, createSerializer } from "nuqs";
import { describe, expect, it } from "vitest";
import { type ExperimentListViewState, experimentListSearchParams } from "./urlState";

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
