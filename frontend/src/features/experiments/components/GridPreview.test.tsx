import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ExperimentCreate, GridPreviewWithPoints } from "@/api";
import { createWrapper, mockApi } from "@/test/api";
import { SERVED_PARAMETERS } from "@/test/served";
import { usePreviewExperimentQuery } from "../hooks/usePreviewExperimentQuery";
import { GridPreview } from "./GridPreview";

afterEach(() => vi.unstubAllGlobals());

// The server's answer for a valid design: 6 configurations, 18 runs.
const answer: GridPreviewWithPoints = {
  configurations: 6,
  runs: 18,
  estimated_seconds: 18 * 68,
  overhead: { seconds: 8, source: "default", runs: 0, testbed_id: null, testbed: "local" },
  points: [{ workers: 8 }, { workers: 16 }],
};

// FastAPI's 422 for the invalid edit: the field and the reason.
const refused = {
  detail: [{ loc: ["body", "repetitions"], msg: "Input should be greater than or equal to 1" }],
};

function Preview({ spec }: { spec: ExperimentCreate }) {
  const p = usePreviewExperimentQuery(spec, 0);
  return (
    <GridPreview
      preview={p.preview}
      isFetching={p.isFetching}
      isStale={p.isStale}
      error={p.error}
    />
  );
}

const valid = { name: "x", factors: { workers: [8, 16] }, repetitions: 3 } as ExperimentCreate;
const invalid = { ...valid, repetitions: 0 } as ExperimentCreate;

describe("GridPreview", () => {
  it("shows no numbers of the last valid design after an invalid edit, only the reason", async () => {
    mockApi((call) => {
      if (call.path.endsWith("/parameters")) return [200, SERVED_PARAMETERS];
      const body = call.body as { repetitions: number };
      return body.repetitions >= 1 ? [200, answer] : [422, refused];
    });
    const { wrapper } = createWrapper();
    const { rerender } = render(<Preview spec={valid} />, { wrapper });
    await waitFor(() => expect(screen.getByTestId("preview-runs").textContent).toBe("18"));
    expect(screen.getByTestId("preview-configurations").textContent).toBe("6");

    rerender(<Preview spec={invalid} />);
    const reasons = await screen.findByTestId("preview-error");
    expect(reasons.textContent).toBe("repetitions: Input should be greater than or equal to 1");
    expect(screen.getByRole("heading").textContent).toBe("Preview not current");
    // None of the earlier design's numbers is left on the card.
    expect(screen.queryByTestId("preview-runs")).toBeNull();
    expect(screen.queryByTestId("preview-configurations")).toBeNull();
    expect(screen.queryByTestId("preview-duration")).toBeNull();
    expect(screen.getByTestId("grid-preview").textContent).not.toMatch(/18|\b6\b/);

    // Valid again: the current design's numbers come back.
    rerender(<Preview spec={valid} />);
    await waitFor(() => expect(screen.getByTestId("preview-runs").textContent).toBe("18"));
    expect(screen.queryByTestId("preview-error")).toBeNull();
  });

  it("says 'updating' while the numbers shown are of an earlier design", () => {
    const { wrapper } = createWrapper();
    mockApi(() => [200, SERVED_PARAMETERS]);
    render(<GridPreview preview={answer} isFetching={false} isStale={true} error={null} />, {
      wrapper,
    });
    expect(screen.getByTestId("preview-updating").textContent).toBe("updating…");
    expect(screen.getByTestId("grid-preview").className).toContain("stale");
  });

  it("names a refusal that is not a 422 by its message", async () => {
    const { wrapper } = createWrapper();
    mockApi(() => [200, SERVED_PARAMETERS]);
    render(
      <GridPreview
        preview={answer}
        isFetching={false}
        isStale={false}
        error={new Error("The server could not be reached")}
      />,
      { wrapper },
    );
    expect(screen.getByTestId("preview-error").textContent).toBe("The server could not be reached");
    expect(screen.queryByTestId("preview-runs")).toBeNull();
  });
});
