// Analyses of a measured experiment from the /analysis API: breakdown and interactive law.
import type { RequestType } from "@/api";
import { slug } from "@/features/export/utils/download";
import type { ResultSource } from "@/lib/queryKeys";
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
  /** At least two factors, each at two levels: a 2^k r design. */
  twoLevel: boolean;
}

export function AnalysisPanel({
  experimentId,
  name,
  source,
  requestType,
  twoLevel,
}: AnalysisPanelProps) {
  const { breakdown, error: breakdownError } = useGetBreakdownQuery(
    experimentId,
    requestType,
    true,
  );
  const { law, error: lawError } = useGetInteractiveLawQuery(experimentId, requestType, true);
  // A 422 here means "not enough data for this analysis" (e.g. no middleware times): say so
  // in place rather than as an error toast.
  return (
    <>
      {breakdown ? (
        <BreakdownPlot rows={breakdown.data} filename={`${slug(name)}-breakdown-${requestType}`} />
      ) : (
        breakdownError && <p className="hint">Breakdown not available: {breakdownError.message}</p>
      )}
      {twoLevel && (
        <FactorialPanel experimentId={experimentId} source={source} requestType={requestType} />
      )}
      {law ? (
        <InteractiveLawTable law={law} />
      ) : (
        lawError && <p className="hint">Interactive law not available: {lawError.message}</p>
      )}
    </>
  );
}
