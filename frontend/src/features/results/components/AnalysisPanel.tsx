// Analyses of a measured experiment from the /analysis API: breakdown, network bound and
// interactive law.
import type { RequestType } from "@/api";
import { Unavailable } from "@/components/common/Unavailable";
import { ServerPlot } from "@/features/export";
import { slug } from "@/lib/download";
import { type ResultSource, type ResultWindow, windowQuery } from "@/lib/queryKeys";
import { useGetInteractiveLawQuery } from "../hooks/useGetInteractiveLawQuery";
import { useGetNetworkBoundQuery } from "../hooks/useGetNetworkBoundQuery";
import { FactorialPanel } from "./FactorialPanel";
import { InteractiveLawTable } from "./InteractiveLawTable";
import { NetworkBoundHint } from "./NetworkBoundHint";
import { NetworkBoundTable } from "./NetworkBoundTable";

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
  const { law, error: lawError } = useGetInteractiveLawQuery(experimentId, requestType, cut, true);
  const { bound } = useGetNetworkBoundQuery(experimentId, requestType, cut);
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
      {twoLevel && (
        <FactorialPanel
          experimentId={experimentId}
          source={source}
          requestType={requestType}
          cut={cut}
        />
      )}
      {bound ? (
        <NetworkBoundTable bound={bound} />
      ) : (
        <NetworkBoundHint experimentId={experimentId} />
      )}
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
