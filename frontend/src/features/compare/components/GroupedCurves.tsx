// One mean curve per group (experiment or a parameter's level) with a std / SE / t-CI band.
import type { Config } from "plotly.js";
import { memo, useMemo, useRef } from "react";
import type { GroupsPublic } from "@/api";
import { LazyPlot } from "@/components/common/LazyPlot";
import { FigureExportButtons } from "@/features/export/components/FigureExportButtons";
import { plotLayout } from "@/features/results/components/ResultsPlot.utils";
import { axisTitle } from "@/features/results/utils/series";
import { capitalize, groupTraces, levelTicks } from "./GroupedCurves.utils";

const PLOT_CONFIG: Partial<Config> = { displaylogo: false, responsive: true };

const BAND_TEXT = { std: "± std", se: "± standard error", ci: "t confidence interval" } as const;

/** Props of GroupedCurves. */
export interface GroupedCurvesProps {
  groups: GroupsPublic;
  /** The metric as the metric table labels it ("99th percentile response time"). */
  metricLabel: string;
  /** The x parameter and the grouping as the parameter schema labels them. */
  xLabel: string;
  groupLabel: string;
}

export const GroupedCurves = memo(function GroupedCurves({
  groups,
  metricLabel,
  xLabel,
  groupLabel,
}: GroupedCurvesProps) {
  const graphDiv = useRef<HTMLElement | null>(null);
  const traces = useMemo(() => groupTraces(groups.data), [groups.data]);
  const categorical = groups.data.some((g) => g.points.some((p) => typeof p.x !== "number"));
  const layout = useMemo(() => {
    const base = plotLayout(xLabel, axisTitle(metricLabel, groups.unit), categorical);
    const ticks = categorical ? undefined : levelTicks(groups.data);
    return ticks ? { ...base, xaxis: { ...base.xaxis, tickvals: ticks } } : base;
  }, [groups.unit, groups.data, xLabel, metricLabel, categorical]);
  const band =
    groups.band === "ci"
      ? `${Math.round(groups.level * 1000) / 10}% ${BAND_TEXT.ci}`
      : BAND_TEXT[groups.band];
  const by = groups.group_by === "experiment" ? "experiment" : groups.group_by;
  const byLabel = groups.group_by === "experiment" ? "experiment" : groupLabel;
  return (
    <div className="card figure" data-testid="grouped-curves">
      <div className="section-header">
        <h3>
          {capitalize(metricLabel)} by {byLabel}, band {band}
        </h3>
        <FigureExportButtons graphDiv={graphDiv} filename={`compare-${groups.metric}-by-${by}`} />
      </div>
      {groups.data.length === 0 ? (
        <p className="hint">No measurements for this selection yet.</p>
      ) : (
        <LazyPlot
          data={traces}
          layout={layout}
          config={PLOT_CONFIG}
          onInitialized={(gd) => {
            graphDiv.current = gd;
          }}
        />
      )}
    </div>
  );
});
