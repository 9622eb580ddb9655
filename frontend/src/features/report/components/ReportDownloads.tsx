// The saved report as the LaTeX bundle (.zip) or the compiled PDF, from the server.
import { handleError } from "@/components/common/handleError";
import { type ReportFile, useDownloadReportMutation } from "../hooks/useReportMutations";

/** Props of ReportDownloads. */
export interface ReportDownloadsProps {
  experimentId: number;
  name: string;
  /** The form has edits the server does not have yet. */
  unsaved: boolean;
}

export function ReportDownloads({ experimentId, name, unsaved }: ReportDownloadsProps) {
  const download = useDownloadReportMutation(experimentId, name);
  const get = (file: ReportFile) => download.mutate(file, { onError: handleError });
  return (
    <div className="actions" data-testid="report-downloads">
      <button type="button" disabled={download.isPending} onClick={() => get("bundle")}>
        Download bundle (.zip)
      </button>
      <button type="button" disabled={download.isPending} onClick={() => get("pdf")}>
        Download PDF
      </button>
      {unsaved && <span className="hint">Downloads hold the saved report; save first.</span>}
      {download.error && (
        <p className="error-text" role="alert" data-testid="report-download-error">
          {download.error.message}
        </p>
      )}
    </div>
  );
}
