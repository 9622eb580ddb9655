// The live preview of the design: a grid's counts, estimated duration and first points, or a
// latency-SLO search's bound (its probes are decided one at a time).
import type { GridPreviewWithPoints } from "@/api";
import { CostSummary } from "@/components/common/CostSummary";
import { formatOverhead, formatValue } from "@/lib/format";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { describeRange, estimateText } from "../utils/ruleRange";
import { DesignOptions } from "./DesignOptions";
import { FractionPreview } from "./FractionPreview";
import { RuleRange } from "./RuleRange";
import { SameSystemWarning } from "./SameSystemWarning";

/** Props of GridPreview. */
export interface GridPreviewProps {
  preview: GridPreviewWithPoints | undefined;
  isFetching: boolean;
  isStale: boolean;
  hasError: boolean;
  /** The inputs of the detectable effects, shown above the designs. */
  children?: React.ReactNode;
}

const SHOWN_POINTS = 10;

export function GridPreview({
  preview,
  isFetching,
  isStale,
  hasError,
  children,
}: GridPreviewProps) {
  const labels = useParameterLabels();
  const columns = preview?.points[0] ? Object.keys(preview.points[0]) : [];
  // With a repetition rule the counts are a range, minimum to cap.
  const range = preview?.rule_range ? describeRange(preview.rule_range) : null;
  const bound = preview?.slo_search?.explanation;
  return (
    <div
      className={`card preview${isStale || hasError ? " stale" : ""}`}
      data-testid="grid-preview"
    >
      <h2>
        {bound ? "Search preview" : "Grid preview"}{" "}
        {isFetching && <span className="hint">updating…</span>}
      </h2>
      {hasError && <p className="hint">Fix the highlighted fields to update the preview.</p>}
      {preview ? (
        <>
          <dl className="stats">
            <dt>{bound ? "Rates probed, at most" : "Configurations"}</dt>
            <dd data-testid="preview-configurations">{preview.configurations}</dd>
            <dt>{bound ? "Runs, at most" : "Runs"}</dt>
            <dd data-testid="preview-runs">{range ? range.runs : preview.runs}</dd>
            <dt>{bound ? "Duration, at most" : "Estimated duration"}</dt>
            <dd data-testid="preview-duration">
              {estimateText(preview)}{" "}
              <span className="hint" data-testid="preview-overhead">
                ({formatOverhead(preview.overhead)})
              </span>
            </dd>
          </dl>
          {bound && (
            <p className="hint" data-testid="preview-slo-bound">
              The search decides each probe after the last one, so these are bounds: {bound}.
            </p>
          )}
          {preview.cost && (
            <CostSummary
              cost={preview.cost}
              label={
                bound
                  ? "Cost, at most"
                  : range
                    ? "Estimated cost at the rule's minimum"
                    : "Estimated cost"
              }
              testId="preview-cost"
            />
          )}
          <SameSystemWarning groups={preview.same_system ?? []} />
          {preview.rule_range && <RuleRange range={preview.rule_range} />}
          {preview.fraction && <FractionPreview fraction={preview.fraction} />}
          {preview.power && (
            <>
              {children}
              <DesignOptions power={preview.power} />
            </>
          )}
          {columns.length > 0 && (
            <table className="table compact">
              <thead>
                <tr>
                  <th>#</th>
                  {columns.map((c) => (
                    <th key={c}>{labels.title(c)}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.points.slice(0, SHOWN_POINTS).map((p, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: points are positional
                  <tr key={i}>
                    <td>{i}</td>
                    {columns.map((c) => (
                      <td key={c}>{formatValue(p[c])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {!bound && preview.configurations > SHOWN_POINTS && (
            <p className="hint">
              …and {preview.configurations - SHOWN_POINTS} more configurations.
            </p>
          )}
        </>
      ) : (
        !hasError && <p className="hint">Computing…</p>
      )}
    </div>
  );
}
