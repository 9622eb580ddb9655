// The app's QueryClient: 401/403 are handled here once; other errors are shown by each view.
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { handleError } from "@/components/common/handleError";
import { ApiError } from "./apiError";

function isAuthError(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

function onAuthError(error: unknown): void {
  if (isAuthError(error)) handleError(new Error("Not allowed: your session has no access to this"));
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onAuthError }),
    mutationCache: new MutationCache({ onError: onAuthError }),
    defaultOptions: {
      queries: {
        // Client errors (404, 422) will not change by retrying.
        retry: (count, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}
