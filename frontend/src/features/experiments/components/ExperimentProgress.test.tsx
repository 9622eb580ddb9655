import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ExperimentProgress } from "./ExperimentProgress";

const counts = { queued: 20000, running: 0, succeeded: 0, failed: 0, cancelled: 0 };

describe("ExperimentProgress", () => {
  it("shows how many runs Start's background task has sent", () => {
    render(<ExperimentProgress counts={counts} planned={20000} unsent={15000} />);
    const sending = screen.getByTestId("sending-progress");
    expect(sending.textContent).toContain("5000 of 20000 sent");
    const bar = screen.getByRole("progressbar", { name: "Runs sent to the worker queue" });
    expect(bar.getAttribute("value")).toBe("5000");
  });

  it("says nothing about sending once every run is sent", () => {
    render(<ExperimentProgress counts={counts} planned={20000} unsent={0} />);
    expect(screen.queryByTestId("sending-progress")).toBeNull();
  });
});
