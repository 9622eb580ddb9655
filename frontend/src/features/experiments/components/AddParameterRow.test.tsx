import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { ParameterPublic } from "@/api";
import { SERVED_PARAMETERS } from "@/test/served";
import { AddParameterRow } from "./AddParameterRow";

/** A parameter as /parameters serves it. */
const param = (name: string): ParameterPublic => {
  const p = SERVED_PARAMETERS.find((x) => x.name === name);
  if (!p) throw new Error(`no served parameter ${name}`);
  return p;
};

describe("AddParameterRow", () => {
  it("adds the first available parameter when none is picked", () => {
    const onAdd = vi.fn();
    render(
      <AddParameterRow
        available={[param("servers"), param("workers")]}
        selectLabel="Parameter to vary"
        buttonLabel="Add factor"
        onAdd={onAdd}
      />,
    );
    // The served label, never the description ("middleware worker threads").
    expect(screen.getByRole("option", { name: "memcached servers" })).toBeTruthy();
    expect(screen.getByRole("option", { name: "worker threads" })).toBeTruthy();
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
