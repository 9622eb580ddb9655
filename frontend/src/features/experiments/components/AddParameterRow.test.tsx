import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { ParameterPublic } from "@/api";
import { AddParameterRow } from "./AddParameterRow";

const param = (name: string, unit: string | null = null): ParameterPublic => ({
  name,
  kind: "int",
  default: 1,
  description: name,
  unit,
  minimum: 1,
  maximum: 16,
  choices: [],
});

describe("AddParameterRow", () => {
  it("adds the first available parameter when none is picked", () => {
    const onAdd = vi.fn();
    render(
      <AddParameterRow
        available={[param("servers", "servers"), param("workers")]}
        selectLabel="Parameter to vary"
        buttonLabel="Add factor"
        onAdd={onAdd}
      />,
    );
    expect(screen.getByRole("option", { name: "servers (servers)" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Add factor" }));
    expect(onAdd).toHaveBeenCalledWith(expect.objectContaining({ name: "servers" }));
  });

  it("adds the picked parameter", () => {
    const onAdd = vi.fn();
    render(
      <AddParameterRow
        available={[param("servers"), param("workers")]}
        selectLabel="Parameter to fix"
        buttonLabel="Add fixed value"
        onAdd={onAdd}
      />,
    );
    fireEvent.change(screen.getByRole("combobox", { name: "Parameter to fix" }), {
      target: { value: "workers" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Add fixed value" }));
    expect(onAdd).toHaveBeenCalledWith(expect.objectContaining({ name: "workers" }));
  });

  it("renders nothing when every parameter is used", () => {
    const { container } = render(
      <AddParameterRow available={[]} selectLabel="x" buttonLabel="Add" onAdd={vi.fn()} />,
    );
    expect(container.innerHTML).toBe("");
  });
});
