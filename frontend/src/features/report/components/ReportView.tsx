// The Report tab: hypothesis, notes, the chosen figures and tables in order, save and downloads.
// The form edits a local draft of the server's report; Save writes it back with PUT.
import { useEffect, useMemo, useState } from "react";
import type { ReportItem, ReportPublic } from "@/api";
import { handleError, showSuccess } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import {
  useGetFigureListQuery,
  useGetReportQuery,
  useGetTableListQuery,
} from "../hooks/useGetReportQuery";
import { useUpdateReportMutation } from "../hooks/useReportMutations";
import { type ReportChoice, reportChoices } from "../utils/items";
import { AddItemPicker } from "./AddItemPicker";
import { HypothesisField } from "./HypothesisField";
import { ReportDownloads } from "./ReportDownloads";
import { ReportItemList } from "./ReportItemList";

/** Props of ReportView. */
export interface ReportViewProps {
  experimentId: number;
  name: string;
}

export function ReportView({ experimentId, name }: ReportViewProps) {
  const { report, isLoading, error } = useGetReportQuery(experimentId);
  const { figures, error: figuresError } = useGetFigureListQuery(experimentId);
  const { tables, error: tablesError } = useGetTableListQuery(experimentId);
  useEffect(() => {
    if (error) handleError(error);
    if (figuresError) handleError(figuresError);
    if (tablesError) handleError(tablesError);
  }, [error, figuresError, tablesError]);
  const choices = useMemo<ReportChoice[]>(
    () => reportChoices(figures?.data ?? [], tables?.data ?? []),
    [figures, tables],
  );
  // The items' titles come from the figure and table lists: without them a heading would show
  // the item's key ("response-time") until they arrive.
  const listsPending = (!figures && !figuresError) || (!tables && !tablesError);
  if (isLoading || !report || listsPending) {
    return <PendingBlock label="Loading report" rows={4} />;
  }
  return (
    <ReportForm
      key={report.hypothesis_at ?? "none"}
      report={report}
      choices={choices}
      experimentId={experimentId}
      name={name}
    />
  );
}

interface ReportFormProps {
  report: ReportPublic;
  choices: ReportChoice[];
  experimentId: number;
  name: string;
}

function ReportForm({ report, choices, experimentId, name }: ReportFormProps) {
  const [hypothesis, setHypothesis] = useState(report.hypothesis);
  const [notes, setNotes] = useState(report.notes);
  const [items, setItems] = useState<ReportItem[]>(report.items);
  const [dirty, setDirty] = useState(false);
  const save = useUpdateReportMutation(experimentId);
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setDirty(true);
    };
  const onSave = () =>
    save.mutate(
      { hypothesis, notes, items },
      {
        onSuccess: () => {
          setDirty(false);
          showSuccess("Report saved");
        },
        onError: handleError,
      },
    );
  return (
    <section className="card" data-testid="report-builder">
      <h2>Report</h2>
      <HypothesisField report={report} value={hypothesis} onChange={edit(setHypothesis)} />
      <label className="report-field">
        Notes
        <textarea
          name="notes"
          rows={4}
          value={notes}
          onChange={(e) => edit(setNotes)(e.target.value)}
        />
      </label>
      <h3>Figures and tables</h3>
      <ReportItemList
        items={items}
        choices={choices}
        onChange={edit(setItems)}
        experimentId={experimentId}
      />
      <AddItemPicker items={items} choices={choices} onChange={edit(setItems)} />
      <div className="actions">
        <button type="button" className="primary" disabled={save.isPending} onClick={onSave}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
        <span className="hint" data-testid="report-save-state">
          {dirty ? "Unsaved changes" : "Saved"}
        </span>
      </div>
      <ReportDownloads experimentId={experimentId} name={name} unsaved={dirty} />
    </section>
  );
}
