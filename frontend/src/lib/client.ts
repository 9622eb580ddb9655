// Configures the generated API client once: relative URLs, errors thrown as ApiError.
import { client } from "@/api/client.gen";
import { ApiError } from "./apiError";

let configured = false;

export function configureApiClient(baseUrl = ""): void {
  client.setConfig({ baseUrl, throwOnError: true });
  if (configured) return;
  configured = true;
  // The generated client throws the bare JSON body; wrap it so callers also get the status.
  client.interceptors.error.use((error, response) => new ApiError(response?.status ?? 0, error));
}
