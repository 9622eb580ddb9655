// The one place errors become user-visible: a toast with the server's own message.
import { ApiError } from "@/lib/apiError";
import { pushToast } from "./toastStore";

export function handleError(error: unknown): void {
  if (error instanceof ApiError || error instanceof Error) {
    pushToast("error", error.message);
    return;
  }
  pushToast("error", "Something went wrong");
}

export function showSuccess(text: string): void {
  pushToast("success", text);
}
