import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SameSystemPublic } from "@/api";
import { createWrapper, mockApi } from "@/test/api";
import { SERVED_PARAMETERS } from "@/test/served";
import { SameSystemWarning } from "./SameSystemWarning";

afterEach(() => vi.unstubAllGlobals());

// As the preview answers servers {1, 3} x replication {one, all}.
const groups: SameSystemPublic[] = [
  {
    points: [0, 1],
    values: [
      { servers: 1, replication: "one" },
      { servers: 1, replication: "all" },
    ],
    reasons: ["with 1 server every set is written to that one server"],
  },
];

describe("SameSystemWarning", () => {
  it("lists the configurations that are one system, with their labels and why", async () => {
    mockApi((call) =>
      call.path.endsWith("/parameters") ? [200, SERVED_PARAMETERS] : [404, { detail: "no" }],
    );
    const { wrapper } = createWrapper();
    render(<SameSystemWarning groups={groups} />, { wrapper });
    const group = screen.getByTestId("same-system-group");
    await waitFor(() => expect(group.textContent).toContain("Memcached servers 1"));
    expect(group.textContent).toBe(
      "#0 (Memcached servers 1, Replication (servers) one) = " +
        "#1 (Memcached servers 1, Replication (servers) all)" +
        ": with 1 server every set is written to that one server.",
    );
    expect(screen.getByTestId("same-system-warning").textContent).toContain("One group");
  });

  it("shows nothing for a grid of distinct systems", () => {
    mockApi(() => [200, SERVED_PARAMETERS]);
    const { wrapper } = createWrapper();
    render(<SameSystemWarning groups={[]} />, { wrapper });
    expect(screen.queryByTestId("same-system-warning")).toBeNull();
  });
});
