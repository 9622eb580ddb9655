// Configures the generated API client once: relative URLs, the bearer token for every operation
// the OpenAPI marks as secured, errors thrown as ApiError, and a 401 back to the login page.
import { client } from "@/api/client.gen";
import { ApiError } from "./apiError";
import { getToken, redirectToLogin } from "./auth";

let errorInterceptor: number | undefined;

export function configureApiClient(baseUrl = ""): void {
  client.setConfig({ baseUrl, throwOnError: true, auth: () => getToken() ?? undefined });
  if (errorInterceptor !== undefined) return;
  // The generated client throws the bare JSON body; wrap it so callers also get the status.
  errorInterceptor = client.interceptors.error.use((error, response) => {
    if (response?.status === 401) redirectToLogin();
    return new ApiError(response?.status ?? 0, error);
  });
}

/** Undoes configureApiClient: the client as a fresh module has it. For the unit tests, whose
 * files share their worker's modules (`isolate: false`): one file's set-up must not reach the
 * next file. */
export function resetApiClient(): void {
  client.setConfig({ baseUrl: "", throwOnError: false, auth: undefined });
  if (errorInterceptor !== undefined) client.interceptors.error.eject(errorInterceptor);
  errorInterceptor = undefined;
}
