// Configures the generated API client once: relative URLs, the bearer token for every operation
// the OpenAPI marks as secured, errors thrown as ApiError, and a 401 back to the login page.
import { client } from "@/api/client.gen";
import { ApiError } from "./apiError";
import { getToken, redirectToLogin } from "./auth";

let configured = false;

export function configureApiClient(baseUrl = ""): void {
  client.setConfig({ baseUrl, throwOnError: true, auth: () => getToken() ?? undefined });
  if (configured) return;
  configured = true;
  // The generated client throws the bare JSON body; wrap it so callers also get the status.
  client.interceptors.error.use((error, response) => {
    if (response?.status === 401) redirectToLogin();
    return new ApiError(response?.status ?? 0, error);
  });
}
