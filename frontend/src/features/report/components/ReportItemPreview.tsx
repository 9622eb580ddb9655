// A report item as it will print: the server's figure for the item's stored selection (the
// one the bundle renders), or for a table the view its numbers come from.
import type { Config } from "plotly.js";
import { memo, useMemo } from "react";
import type { ReportItem } from "@/api";
import { LazyPlot } from "@/components/common/LazyPlot";
import { PendingBlock } from "@/components/common/PendingBlock";
import { Unavailable } from "@/components/common/Unavailable";
import { useGetConfigurationsQuery } from "@/lib/hooks/useGetConfigurationsQuery";
import { useServerFigureQuery } from "@/lib/hooks/useServerFigureQuery";
import { useServerTableQuery } from "@/lib/hooks/useServerTableQuery";
import { selectionText } from "../utils/items";
import { itemFigure, itemTable } from "../utils/views";

const PLOT_CONFIG: Partial<Config> = { displaylogo: false, responsive: true, staticPlot: true };

/** Props of ReportItemPreview. */
export interface ReportItemPreviewProps {
  item: ReportItem;
  experimentId: number;
}

export const ReportItemPreview = memo(function ReportItemPreview({
  item,
  experimentId,
}: ReportItemPreviewProps) {
  const figure = useMemo(() => itemFigure(item, experimentId), [item, experimentId]);
  // Configurations are named by their number, as every page shows them (cached query).
  const { configurations } = useGetConfigurationsQuery(experimentId);
  const numberOf = useMemo(() => {
    const index = new Map((configurations?.data ?? []).map((c) => [c.id, c.index]));
    return (id: number) => index.get(id);
  }, [configurations]);
  const { figure: fig, error } = useServerFigureQuery(figure);
  const table = useMemo(() => itemTable(item, experimentId), [item, experimentId]);
  const { error: tableError } = useServerTableQuery(table);
  const layout = useMemo(() => {
    if (!fig) return {};
    const { meta: _meta, width: _w, height: _h, ...rest } = fig.layout;
    return structuredClone(rest);
  }, [fig]);
  return (
    <div className="report-preview">
      <p className="hint" data-testid="report-item-view">
        {selectionText(item, numberOf)}
      </p>
      {table && tableError && (
        <Unavailable
          what="This table"
          error={tableError}
          hint="(left out of the bundle)"
          testId="table-unavailable"
        />
      )}
      {figure &&
        (error && !fig ? (
          <Unavailable
            what="This figure"
            error={error}
            hint="(left out of the bundle)"
            testId="figure-unavailable"
          />
        ) : !fig ? (
          <PendingBlock label="Loading figure" />
        ) : (
          <div data-testid="report-item-figure">
            <LazyPlot data={fig.data} layout={layout} config={PLOT_CONFIG} height={260} />
            {fig.layout.meta?.caption && (
              <p className="hint" data-testid="report-item-caption">
                {item.caption || fig.layout.meta.caption}
              </p>
            )}
          </div>
        ))}
    </div>
  );
});
