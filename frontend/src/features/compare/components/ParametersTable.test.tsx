import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ParametersComparisonPublic } from "@/api";
import { ParametersTable } from "./ParametersTable";

const parameters: ParametersComparisonPublic = {
  experiments: [
    { id: 1, name: "small clients" },
    { id: 2, name: "big clients" },
  ],
  data: [
    {
      group: "hardware",
      name: "client.size",
      label: "client VM size",
      unit: null,
      values: ["Standard_A2_v2", "Standard_D2s_v3"],
      varied: [false, false],
      differs: true,
    },
  ],
  groupable: [],
  hardware_differences: ["different hardware: client VM size Standard_A2_v2 vs Standard_D2s_v3"],
};

describe("ParametersTable", () => {
  it("shows differing hardware as a difference row and says so above the table", () => {
    render(
      <ParametersTable parameters={parameters} onlyDifferences onOnlyDifferences={() => {}} />,
    );
    expect(screen.getByTestId("hardware-differences").textContent).toBe(
      "different hardware: client VM size Standard_A2_v2 vs Standard_D2s_v3",
    );
    const row = screen.getByTestId("parameter-row");
    expect(row.className).toBe("differs");
    expect(row.textContent).toBe("hardwareclient VM sizeStandard_A2_v2Standard_D2s_v3");
  });
});
