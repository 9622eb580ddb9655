import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { SERVED_DESIGN_FIELDS } from "@/test/served";
import { EMPTY_FORM } from "../utils/designForm";
import { RunSettings } from "./RunSettings";

describe("RunSettings", () => {
  it("labels, units and bounds its inputs as the backend declares the design fields", () => {
    const onChange = vi.fn();
    render(
      <RunSettings
        form={EMPTY_FORM}
        errors={{}}
        onChange={onChange}
        fields={SERVED_DESIGN_FIELDS}
        window={{ start_s: 10, end_s: 80 }}
      />,
    );
    const runTime = screen.getByLabelText("Run time (s)") as HTMLInputElement;
    expect(runTime.name).toBe("run_time_s");
    // The bound the backend serves (backend/domain/design_fields.py), not one written here.
    const served = SERVED_DESIGN_FIELDS.find((f) => f.name === "run_time_s");
    expect(runTime.min).toBe(String(served?.minimum));
    expect(runTime.max).toBe(String(served?.maximum));
    expect(screen.getByLabelText("Repetitions")).toBeTruthy();
    expect(screen.getByLabelText("Warm-up (s)")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Cool-down (s)"), { target: { value: "20" } });
    expect(onChange).toHaveBeenCalledWith({ cooldown_s: 20 });
    expect(screen.getByTestId("window-hint").textContent).toBe(
      "Measured window per run: 10 s to 80 s.",
    );
  });

  it("shows a new design's fields at the served defaults, which the form does not hold", () => {
    render(
      <RunSettings
        form={EMPTY_FORM}
        errors={{}}
        onChange={vi.fn()}
        fields={SERVED_DESIGN_FIELDS}
        window={undefined}
      />,
    );
    for (const f of SERVED_DESIGN_FIELDS) {
      expect(EMPTY_FORM, f.name).not.toHaveProperty(f.name);
      const input = document.querySelector(`input[name="${f.name}"]`) as HTMLInputElement;
      expect(input.value, f.name).toBe(String(f.default));
    }
  });

  it("keeps a value the user typed over the default", () => {
    render(
      <RunSettings
        form={{ ...EMPTY_FORM, run_time_s: 7 }}
        errors={{}}
        onChange={vi.fn()}
        fields={SERVED_DESIGN_FIELDS}
        window={undefined}
      />,
    );
    expect((screen.getByLabelText("Run time (s)") as HTMLInputElement).value).toBe("7");
  });
});
