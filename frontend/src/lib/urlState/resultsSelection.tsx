// The results selection: which experiment (its id, name, and whether its runs are still
// coming in) and, from the URL, the side that measured (source), the request type and the
// measured window. One home for it: the experiment page provides the experiment, and every
// view of its results (the Results and Models tabs and their panels) reads the whole selection
// through useResultsSelection instead of having it passed down as props.
import { createContext, type ReactNode, useContext, useMemo } from "react";
import type { RequestType } from "@/api";
import type { ResultSource, ResultWindow } from "@/lib/queryKeys";
import { useResultsViewState } from "./results";

/** The experiment whose results are shown. */
export interface ResultsExperiment {
  experimentId: number;
  name: string;
  /** Runs are still coming in: the views refetch. */
  poll: boolean;
}

export interface ResultsSelection extends ResultsExperiment {
  source: ResultSource;
  requestType: RequestType;
  /** The re-cut window, or null for each run's stored stable window. */
  cut: ResultWindow | null;
}

const ExperimentContext = createContext<ResultsExperiment | null>(null);

/** Props of ResultsSelectionProvider. */
export interface ResultsSelectionProviderProps extends ResultsExperiment {
  children: ReactNode;
}

export function ResultsSelectionProvider({
  experimentId,
  name,
  poll,
  children,
}: ResultsSelectionProviderProps) {
  const experiment = useMemo(() => ({ experimentId, name, poll }), [experimentId, name, poll]);
  return <ExperimentContext.Provider value={experiment}>{children}</ExperimentContext.Provider>;
}

/** The selection every results view shows; changing it is useResultsViewState's setter. */
export function useResultsSelection(): ResultsSelection {
  const experiment = useContext(ExperimentContext);
  const [{ source, type, window }] = useResultsViewState();
  if (experiment === null) {
    throw new Error("useResultsSelection needs a ResultsSelectionProvider above it");
  }
  return { ...experiment, source, requestType: type, cut: window };
}
