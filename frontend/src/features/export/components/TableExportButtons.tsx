// CSV and LaTeX downloads of a table, written by the server (the one definition of each
// table: booktabs, units in the headers, a caption and a \label derived from the experiment).
import { handleError } from "@/components/common/handleError";
import { AddToReport, tableTarget } from "@/features/report";
import { downloadServerTable, type ServerTable, TABLE_FILE_FORMATS } from "@/lib/serverTable";

/** Props of TableExportButtons. */
export interface TableExportButtonsProps {
  /** The table and the page's selection as its query parameters. */
  table: ServerTable;
  /** Base of the downloaded file names. */
  filename: string;
  testId?: string;
}

export function TableExportButtons({ table, filename, testId }: TableExportButtonsProps) {
  const target = tableTarget(table);
  return (
    <div className="actions" data-testid={testId ?? "table-exports"}>
      {TABLE_FILE_FORMATS.map((f) => (
        <button
          key={f.value}
          type="button"
          onClick={() => downloadServerTable(table, f.value, filename).catch(handleError)}
        >
          {f.label}
        </button>
      ))}
      <AddToReport experimentId={target.experimentId} view={target.view} />
    </div>
  );
}
