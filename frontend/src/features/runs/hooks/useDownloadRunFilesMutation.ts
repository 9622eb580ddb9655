// Downloading a run's raw files (a zip streamed by the API) through the generated client, so
// the client's settings (base URL, auth header) apply as for every other call.
import { useMutation } from "@tanstack/react-query";
import { RunsService } from "@/api";
import { downloadBlob } from "@/lib/download";

async function downloadRunFiles(runId: number): Promise<void> {
  const { data } = await RunsService.readRunFiles({
    path: { run_id: runId },
    parseAs: "blob",
    throwOnError: true,
  });
  downloadBlob(`run-${runId}.zip`, data as unknown as Blob);
}

export function useDownloadRunFilesMutation() {
  return useMutation({ mutationFn: downloadRunFiles });
}
