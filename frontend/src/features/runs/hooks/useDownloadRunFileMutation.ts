// Downloading one archived file of a run through the generated client (base URL, auth header).
import { useMutation } from "@tanstack/react-query";
import { RunsService } from "@/api";
import { downloadBlob } from "@/lib/download";

async function downloadRunFile({ runId, path }: { runId: number; path: string }): Promise<void> {
  const { data } = await RunsService.readRunFileRaw({
    path: { run_id: runId },
    query: { path },
    parseAs: "blob",
    throwOnError: true,
  });
  downloadBlob(path.split("/").pop() ?? path, data as unknown as Blob);
}

export function useDownloadRunFileMutation() {
  return useMutation({ mutationFn: downloadRunFile });
}
