// The live preview of the design: a grid's counts, estimated duration and first points, or a
// latency-SLO search's bound (its probes are decided one at a time). Numbers of an earlier
// design are never shown as the current one's: after an invalid edit the preview shows the
// server's reasons and no numbers; while a valid edit is being previewed they say "updating".
import type { GridPreviewWithPoints } from "@/api";
import { CostSummary } from "@/components/common/CostSummary";
import { fieldErrors } from "@/lib/apiError";
import { formatOverhead, formatValue } from "@/lib/format";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { describeRange, estimateText } from "../utils/ruleRange";
import { DesignOptions } from "./DesignOptions";
import { FractionPreview } from "./FractionPreview";
import { RuleRange } from "./RuleRange";
import { SameSystemWarning } from "./SameSystemWarning";

/** Props of GridPreview. */
export interface GridPreviewProps {
  /** The last preview the server gave (of an earlier design while `isStale` or `error`). */
  preview: GridPreviewWithPoints | undefined;
  isFetching: boolean;
  isStale: boolean;
  /** Why the server refused the current design's preview (a 422 names the fields). */
  error: Error | null;
  /** The inputs of the detectable effects, shown above the designs. */
  children?: React.ReactNode;
}

const SHOWN_POINTS = 10;

/** The server's reasons, one a line: "field: message" for a 422, else the error's message. */
export function previewErrorReasons(error: Error): string[] {
  const fields = Object.entries(fieldErrors(error));
  if (fields.length === 0) return [error.message];
  return fields.map(([field, msg]) => (field ? `${field}: ${msg}` : msg));
}

export function GridPreview({ preview, isFetching, isStale, error, children }: GridPreviewProps) {
  const labels = useParameterLabels();
  if (error) {
    return (
      <div className="card preview stale" data-testid="grid-preview">
        <h2>Preview not current</h2>
        <p className="hint">
          The design as it stands cannot be previewed; fix these and the preview comes back:
        </p>
        <ul data-testid="preview-error">
          {previewErrorReasons(error).map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
        {/* The power inputs stay: one of them may be what the server refused. */}
        {preview?.power && children}
      </div>
    );
  }
  const columns = preview?.points[0] ? Object.keys(preview.points[0]) : [];
  // With a repetition rule the counts are a range, minimum to cap.
  const range = preview?.rule_range ? describeRange(preview.rule_range) : null;
  const bound = preview?.slo_search?.explanation;
  return (
    <div className={`card preview${isStale ? " stale" : ""}`} data-testid="grid-preview">
      <h2>
        {bound ? "Search preview" : "Grid preview"}{" "}
        {(isFetching || isStale) && (
          <span className="hint" data-testid="preview-updating">
            updating…
          </span>
        )}
      </h2>
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
        <p className="hint">Computing…</p>
      )}
    </div>
  );
}
