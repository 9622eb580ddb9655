// "Add to report" beside a figure or table: the report gets this view (the page's selection as
// the server checks it), which later changes of the page leave alone; "Update in report" puts
// the current view into the report's last item of this figure or table.
import { handleError, showSuccess } from "@/components/common/handleError";
import { useGetReportQuery } from "../hooks/useGetReportQuery";
import { useUpdateReportMutation } from "../hooks/useReportMutations";
import { addView, isItemOf, type ReportView, updateView } from "../utils/items";

/** Props of AddToReport. */
export interface AddToReportProps {
  /** The experiment whose report gets the view. */
  experimentId: number;
  view: ReportView;
}

export function AddToReport({ experimentId, view }: AddToReportProps) {
  const { report } = useGetReportQuery(experimentId);
  const save = useUpdateReportMutation(experimentId);
  if (!report) return null;
  const held = report.items.some((item) => isItemOf(item, view));
  const write = (items: typeof report.items, done: string) =>
    save.mutate({ items }, { onSuccess: () => showSuccess(done), onError: handleError });
  return (
    <>
      <button
        type="button"
        data-testid="add-to-report"
        disabled={save.isPending}
        title="Add this view (its selection as shown) to the experiment's report"
        onClick={() => write(addView(report.items, view), "Added to the report")}
      >
        Add to report
      </button>
      {held && (
        <button
          type="button"
          data-testid="update-report-item"
          disabled={save.isPending}
          title="The report's last item of this figure or table shows this view instead"
          onClick={() => write(updateView(report.items, view), "Report item updated")}
        >
          Update in report
        </button>
      )}
    </>
  );
}
