import { cleanup, fireEvent, render, renderHook, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/apiError";
import { ConfirmByName, type ConfirmByNameProps } from "./ConfirmByName";
import { useToasts } from "./toastStore";

afterEach(cleanup);

function show(over: Partial<ConfirmByNameProps> = {}) {
  const props: ConfirmByNameProps = {
    name: "trial",
    consequence: "Deleting removes its hosts.",
    inputName: "confirm-name",
    errorTestId: "error-delete-trial",
    onConfirm: vi.fn(),
    onCancel: vi.fn(),
    pending: false,
    error: null,
    ...over,
  };
  render(<ConfirmByName {...props} />);
  return props;
}

describe("ConfirmByName", () => {
  it("says what the action does and sends the name as typed, closing once it succeeded", () => {
    const props = show({
      onConfirm: vi.fn((_typed: string, done: () => void) => done()),
    });
    expect(screen.getByText(/Deleting removes its hosts\. Type/)).toBeTruthy();
    fireEvent.change(screen.getByRole("textbox"), { target: { value: "trial" } });
    fireEvent.click(screen.getByRole("button", { name: "Delete trial" }));
    expect(props.onConfirm).toHaveBeenCalledWith("trial", props.onCancel);
    expect(props.onCancel).toHaveBeenCalledTimes(1);
  });

  it("shows the server's 422 on the name under the field, not in a toast", () => {
    const toasts = renderHook(() => useToasts());
    const before = toasts.result.current.length;
    const error = new ApiError(422, {
      detail: [{ loc: ["body", "name"], msg: "type the lab's name 'trial' to delete it" }],
    });
    show({ error });
    expect(screen.getByTestId("error-delete-trial").textContent).toBe(
      "type the lab's name 'trial' to delete it",
    );
    expect(screen.getByRole("textbox").getAttribute("aria-invalid")).toBe("true");
    expect(toasts.result.current.length).toBe(before);
  });

  it("puts any other error in a toast with the server's words", () => {
    const toasts = renderHook(() => useToasts());
    show({
      error: new ApiError(503, { detail: "cannot delete: the broker is down; it stays ready" }),
    });
    expect(screen.queryByTestId("error-delete-trial")).toBeNull();
    expect(toasts.result.current.map((t) => t.text).join(" ")).toContain("it stays ready");
  });

  it("keeps the form while the request is out", () => {
    show({ pending: true });
    expect(screen.getByRole("button", { name: "Delete trial" }).hasAttribute("disabled")).toBe(
      true,
    );
    expect(screen.getByRole("button", { name: "Cancel" }).hasAttribute("disabled")).toBe(true);
  });
});
