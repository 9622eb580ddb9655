// Saving the report (PUT) and downloading it as the LaTeX bundle or the compiled PDF, through
// the generated client so the base URL and auth header apply; errors come back as ApiError
// with the server's message (e.g. no TeX engine for the PDF).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ReportsService, type ReportUpdate } from "@/api";
import { downloadBlob, slug } from "@/lib/download";
import { queryKeys } from "@/lib/queryKeys";

export function useUpdateReportMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReportUpdate) => {
      const { data } = await ReportsService.updateExperimentReport({
        path: { experiment_id: id },
        body,
        throwOnError: true,
      });
      return data;
    },
    onSuccess: (data) => queryClient.setQueryData(queryKeys.experiments.report(id), data),
  });
}

export type ReportFile = "bundle" | "pdf";

async function downloadReport(id: number, name: string, file: ReportFile): Promise<void> {
  const options = { path: { experiment_id: id }, parseAs: "blob", throwOnError: true } as const;
  const { data } =
    file === "bundle"
      ? await ReportsService.readReportBundle(options)
      : await ReportsService.readReportPdf(options);
  const ext = file === "bundle" ? "zip" : "pdf";
  downloadBlob(`${slug(name)}-report.${ext}`, data as unknown as Blob);
}

export function useDownloadReportMutation(id: number, name: string) {
  return useMutation({ mutationFn: (file: ReportFile) => downloadReport(id, name, file) });
}
