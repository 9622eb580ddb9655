import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { FitPublic } from "@/api";
import { ABOVE_BOUND } from "@/test/fits";
import { FitMessages, FitWarning } from "./FitWarning";

const FITS: FitPublic = {
  ...ABOVE_BOUND,
  measured: 14000,
  error_percent: 4.4,
  beyond_bound_percent: -4.3,
  verdict: "fits",
  label: "fits",
  message: null,
};

describe("FitWarning", () => {
  it("shows the verdict beside the number, the message on hover", () => {
    render(<FitWarning fit={ABOVE_BOUND} />);
    const badge = screen.getByTestId("fit-warning");
    expect(badge.textContent).toBe("⚠ 46 % above the bound");
    expect(badge.getAttribute("title")).toBe(ABOVE_BOUND.message);
  });

  it("shows nothing for a fit, or for no measurement", () => {
    const { container } = render(
      <>
        <FitWarning fit={FITS} />
        <FitWarning fit={null} />
      </>,
    );
    expect(container.textContent).toBe("");
  });

  it("lists each flagged message once, in words", () => {
    render(<FitMessages fits={[ABOVE_BOUND, FITS, null, ABOVE_BOUND]} />);
    const items = screen.getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([ABOVE_BOUND.message]);
  });
});
