// Generates the typed API client in src/api/ from openapi.json (see scripts/generate-client.sh).
import { defineConfig } from "@hey-api/openapi-ts";

export default defineConfig({
  input: "./openapi.json",
  output: "./src/api",
  plugins: [
    "@hey-api/client-fetch",
    "@hey-api/typescript",
    {
      name: "@hey-api/sdk",
      // One class per backend tag (ExperimentsService.readExperiment), as the backend's
      // custom_generate_unique_id intends: operationId "experiments-read_experiment".
      operations: {
        strategy: "byTags",
        containerName: { name: "{{name}}Service" },
        nesting: (operation) => [
          (operation.operationId ?? operation.id).split("-").slice(-1)[0] ?? operation.id,
        ],
      },
    },
  ],
});
