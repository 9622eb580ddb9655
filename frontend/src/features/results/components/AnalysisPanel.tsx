// Analyses of a measured experiment from the /analysis API: breakdown and interactive law.
import type { RequestType } from "@/api";
import { slug } from "@/features/export/utils/download";
import type { ResultSource, ResultWindow } from "@/lib/queryKeys";
import { useGetBreakdownQuery } from "../hooks/useGetBreakdownQuery";
import { useGetInteractiveLawQuery } from "../hooks/useGetInteractiveLawQuery";
import { BreakdownPlot } from "./BreakdownPlot";
import { FactorialPanel } from "./FactorialPanel";
import { InteractiveLawTable } from "./InteractiveLawTable";

/** Props of AnalysisPanel. */
export interface AnalysisPanelProps {
  experimentId: number;
  name: string;
  source: ResultSource;
  requestType: RequestType;
  /** The re-cut window, or null for the stored one. */
  cut: ResultWindow | null;
  /** At least two factors, each at two levels: a 2^k r design. */
  twoLevel: boolean;
}

export function AnalysisPanel({
  experimentId,
  name,
  source,
  requestType,
  cut,
  twoLevel,
}: AnalysisPanelProps) {
  const { breakdown, error: breakdownError } = useGetBreakdownQuery(
    experimentId,
    requestType,
    cut,
    true,
  );
  const { law, error: lawError } = useGetInteractiveLawQuery(experimentId, requestType, cut, true);
  // A 422 here means "not enough data for this analysis" (e.g. no middleware times): say so
  // in place rather than as an error toast.
  return (
    <>
      {breakdown ? (
        <BreakdownPlot rows={breakdown.data} filename={`${slug(name)}-breakdown-${requestType}`} />
      ) : (
        breakdownError && (
          <p className="hint" data-testid="breakdown-unavailable">
            The response-time breakdown appears once every configuration has a finished run with
            middleware timings.
          </p>
        )
      )}
      {twoLevel && (
        <FactorialPanel
          experimentId={experimentId}
          source={source}
          requestType={requestType}
          cut={cut}
        />
      )}
      {law ? (
        <InteractiveLawTable law={law} />
      ) : (
        lawError && (
          <p className="hint" data-testid="law-unavailable">
            The interactive response-time law check appears once every configuration has a finished
            run.
          </p>
        )
      )}
    </>
  );
}
