import { Unavailable } from "@/components/common/Unavailable";
import { ServerPlot } from "@/features/export";
import { slug } from "@/lib/download";
import { windowQuery } from "@/lib/queryKeys";
import { useResultsSelection } from "@/lib/urlState/resultsSelection";
import { useGetInteractiveLawQuery } from "../hooks/useGetInteractiveLawQuery";
import { FactorialPanel } from "./FactorialPanel";
import { InteractiveLawTable } from "./InteractiveLawTable";
import { NetworkBoundPanel } from "./NetworkBoundPanel";

/** Props of AnalysisPanel. */
export interface AnalysisPanelProps {
  /** At least two factors, each at two levels: a 2^k r design. */
  twoLevel: boolean;
}

export function AnalysisPanel({ twoLevel }: AnalysisPanelProps) {
  const { experimentId, name, requestType, cut } = useResultsSelection();
  const { law, error: lawError } = useGetInteractiveLawQuery(experimentId, requestType, cut, true);
  // A 4xx here says why an analysis cannot be drawn (e.g. no middleware times): its reason is
  // shown in place rather than as an error toast.
  return (
    <>
      <ServerPlot
        title="Response-time breakdown"
        testId="figure-breakdown"
        figure={{
          experimentId,
          name: "breakdown",
          params: { request_type: requestType, ...windowQuery(cut) },
        }}
        filename={`${slug(name)}-breakdown-${requestType}`}
        unavailable={
          <span data-testid="breakdown-unavailable">
            (The breakdown needs a finished run with middleware timings in every configuration.)
          </span>
        }
      />
      {twoLevel && <FactorialPanel />}
      <NetworkBoundPanel experimentId={experimentId} requestType={requestType} window={cut} />
      {law ? (
        <InteractiveLawTable law={law} />
      ) : (
        lawError && (
          <Unavailable
            what="The interactive response-time law check"
            error={lawError}
            testId="law-unavailable"
          />
        )
      )}
    </>
  );
}
