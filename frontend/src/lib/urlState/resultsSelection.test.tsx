import { renderHook } from "@testing-library/react";
import { NuqsTestingAdapter } from "nuqs/adapters/testing";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { ResultsSelectionProvider, useResultsSelection } from "./resultsSelection";

function wrapperAt(search: string) {
  return ({ children }: { children: ReactNode }) => (
    <NuqsTestingAdapter searchParams={search}>
      <ResultsSelectionProvider experimentId={7} name="writes" poll={true}>
        {children}
      </ResultsSelectionProvider>
    </NuqsTestingAdapter>
  );
}

describe("useResultsSelection", () => {
  it("is the provided experiment with the URL's source, request type and window", () => {
    const { result } = renderHook(() => useResultsSelection(), {
      wrapper: wrapperAt("?source=middleware&type=get&window=10-70"),
    });
    expect(result.current).toEqual({
      experimentId: 7,
      name: "writes",
      poll: true,
      source: "middleware",
      requestType: "get",
      cut: { start: 10, end: 70 },
    });
  });

  it("defaults to the clients, all requests and each run's stored window", () => {
    const { result } = renderHook(() => useResultsSelection(), { wrapper: wrapperAt("") });
    expect(result.current.source).toBe("client");
    expect(result.current.requestType).toBe("all");
    expect(result.current.cut).toBeNull();
  });

  it("refuses to run without the experiment's provider", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const bare = ({ children }: { children: ReactNode }) => (
      <NuqsTestingAdapter>{children}</NuqsTestingAdapter>
    );
    expect(() => renderHook(() => useResultsSelection(), { wrapper: bare })).toThrow(
      "useResultsSelection needs a ResultsSelectionProvider above it",
    );
    vi.restoreAllMocks();
  });
});
